/**
 * How long before its caller's deadline a call answers, at most: the reply's way back through
 * the broker (milliseconds, tens under load) and the clocks' skew. Not more: work that would
 * have finished within it is answered as still in progress.
 */
const REPLY_MARGIN_MS = 250;

/**
 * Answers `work`'s outcome, or, when `work` would outlast the caller's deadline, `late()`'s
 * error shortly before it: a caller that has stopped waiting reads no reply, and one that is
 * told to retry finds the work's outcome then. `work` goes on either way (it holds what it
 * needs, a lease say); a failure after the answer goes to `onLateFailure`. The margin is a
 * tenth of the time the caller gave, at most REPLY_MARGIN_MS.
 */
export function answerBeforeDeadline<T>(
  work: Promise<T>,
  deadline: number | undefined,
  late: () => Error,
  onLateFailure: (err: unknown) => void,
): Promise<T> {
  if (deadline === undefined) return work;
  const left = deadline - Date.now();
  const answerIn = left - Math.min(REPLY_MARGIN_MS, left / 10);
  return new Promise<T>((resolve, reject) => {
    let answered = false;
    const timer = setTimeout(() => {
      answered = true;
      reject(late());
    }, Math.max(0, answerIn));
    work.then(
      (value) => {
        clearTimeout(timer);
        if (!answered) resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        if (answered) onLateFailure(err);
        else reject(err);
      },
    );
  });
}
