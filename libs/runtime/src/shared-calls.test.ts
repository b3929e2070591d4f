import { describe, expect, it } from "vitest";
import { SharedCalls } from "./shared-calls.ts";

/** A call that settles when the test says, counting how many times it was made. */
function gate<T>() {
  let made = 0;
  let settle!: { resolve: (v: T) => void; reject: (e: Error) => void };
  const call = () => {
    made++;
    return new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  };
  return { call, made: () => made, settle: () => settle };
}

describe("SharedCalls", () => {
  it("makes one call for a burst of the same key, and every caller gets its answer", async () => {
    const shared = new SharedCalls<string>();
    const g = gate<string>();
    const answers = Promise.all(Array.from({ length: 20 }, () => shared.run("payout-1", g.call)));
    g.settle().resolve("transfer-1");
    expect(await answers).toEqual(Array.from({ length: 20 }, () => "transfer-1"));
    expect(g.made()).toBe(1);
  });

  it("keeps different keys apart, and calls again once the first call settled", async () => {
    const shared = new SharedCalls<number>();
    let made = 0;
    const call = async () => ++made;
    expect(await Promise.all([shared.run("a", call), shared.run("b", call)])).toEqual([1, 2]);
    expect(await shared.run("a", call)).toBe(3);
  });

  it("lets each waiter make its own call when the one in flight fails", async () => {
    const shared = new SharedCalls<string>();
    const first = gate<string>();
    const failing = shared.run("payout-1", first.call);
    let retries = 0;
    const waiters = Promise.all(Array.from({ length: 3 }, () => shared.run("payout-1", async () => `own-${++retries}`)));
    first.settle().reject(new Error("the first caller's deadline passed"));
    await expect(failing).rejects.toThrow("deadline");
    // The first waiter to retry makes the call; the other two share it.
    expect(await waiters).toEqual(["own-1", "own-1", "own-1"]);
    expect(retries).toBe(1);
  });
});
