/**
 * `Promise.all` that waits for every promise before it rejects, with the first failure: a caller
 * that gives up on a batch of writes leaves none of them still running behind it (the outbox
 * relay's next pass would otherwise meet its own marks still holding FerretDB's document locks,
 * and a stop would not wait for them).
 */
export async function settleAll<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const outcomes = await Promise.allSettled(promises);
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
  if (failed) throw failed.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}
