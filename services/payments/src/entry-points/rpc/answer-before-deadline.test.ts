import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { answerBeforeDeadline } from "./answer-before-deadline.ts";

const late = () => new Error("late");
const after = <T>(ms: number, value: T) => sleep(ms).then(() => value);
const failingAfter = (ms: number, message: string) => sleep(ms).then(() => Promise.reject(new Error(message)));

/** Work that settles when the test says, answered before `deadline` (on the fake clock from 0); what it answered so far, and its late failures. */
function pending(deadline: number) {
  let settle!: { resolve: (value: string) => void; reject: (err: Error) => void };
  const work = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  const seen = { answer: undefined as string | undefined, lateFailures: [] as unknown[] };
  answerBeforeDeadline(work, deadline, late, (err) => seen.lateFailures.push(err)).then(
    (value) => (seen.answer = value),
    (err: Error) => (seen.answer = err.message),
  );
  return { settle, seen };
}

describe("answerBeforeDeadline", () => {
  afterEach(() => void vi.useRealTimers());

  it("answers the work's outcome when the caller gave no deadline", async () => {
    await expect(answerBeforeDeadline(after(20, "done"), undefined, late, () => undefined)).resolves.toBe("done");
  });

  it("answers the work's value, or its failure, when it comes before the deadline", async () => {
    await expect(answerBeforeDeadline(after(10, "done"), Date.now() + 1_000, late, () => undefined)).resolves.toBe("done");
    await expect(answerBeforeDeadline(failingAfter(10, "refused"), Date.now() + 1_000, late, () => undefined)).rejects.toThrow("refused");
  });

  it.each([
    { deadline: 500, answersAt: 450, then: "fails" },
    { deadline: 10_000, answersAt: 9_750, then: "succeeds" },
  ] as const)(
    "answers late()'s error at $answersAt ms for a deadline at $deadline ms (a tenth of the time given, at most 250 ms, before it); the work $then afterwards, and only a failure is reported",
    async ({ deadline, answersAt, then }) => {
      vi.useFakeTimers({ now: 0 });
      const { settle, seen } = pending(deadline);
      await vi.advanceTimersByTimeAsync(answersAt - 1);
      expect(seen.answer).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(seen).toEqual({ answer: "late", lateFailures: [] });
      if (then === "fails") settle.reject(new Error("provider down"));
      else settle.resolve("done");
      await vi.advanceTimersByTimeAsync(1);
      expect(seen).toEqual({ answer: "late", lateFailures: then === "fails" ? [new Error("provider down")] : [] });
    },
  );
});
