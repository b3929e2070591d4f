import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LeaseLost, startLeaseHeartbeat, withLeaseHeartbeat, type LeaseLossReason } from "./lease-heartbeat.ts";

/** A lease document as a store keeps it: the holder's renewals move `until` while it holds. */
function leaseDoc(leaseMs: number) {
  const doc = { holder: "me", until: Date.now() + leaseMs };
  const renew = vi.fn(async (until: Date) => {
    if (doc.holder !== "me") return false;
    doc.until = until.getTime();
    return true;
  });
  return { doc, renew };
}

describe("lease heartbeat", () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.parse("2026-01-01T00:00:00Z") }));
  afterEach(() => vi.useRealTimers());

  it("keeps a 1 s lease alive through 5 s of work, renewing about every third of it", async () => {
    const { doc, renew } = leaseDoc(1_000);
    const lease = startLeaseHeartbeat({ leaseMs: 1_000, until: new Date(doc.until), renew });
    for (let t = 0; t < 5_000; t += 100) {
      await vi.advanceTimersByTimeAsync(100);
      // Nobody could take it over at any moment: its end always lies ahead.
      expect(doc.until).toBeGreaterThan(Date.now());
      lease.check();
    }
    expect(renew.mock.calls.length).toBeGreaterThanOrEqual(14);
    lease.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    const renewals = renew.mock.calls.length;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(renew.mock.calls.length).toBe(renewals);
  });

  it("keeps a 10 s lease when each renewal takes 4 s (a loaded store): the next starts a third of a lease after the previous one started", async () => {
    const { doc, renew } = leaseDoc(10_000);
    const slowRenew = vi.fn(async (until: Date) => {
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      return renew(until);
    });
    const lost: LeaseLossReason[] = [];
    const lease = startLeaseHeartbeat({ leaseMs: 10_000, until: new Date(doc.until), renew: slowRenew, onLost: (r) => lost.push(r) });
    for (let t = 0; t < 60_000; t += 100) {
      await vi.advanceTimersByTimeAsync(100);
      lease.check();
    }
    expect(lost).toEqual([]);
    // Renewals back to back (4 s each, due every 3.3 s), none overlapping another.
    expect(slowRenew.mock.calls.length).toBeGreaterThanOrEqual(14);
    expect(slowRenew.mock.calls.length).toBeLessThanOrEqual(16);
    lease.stop();
  });

  it("loses the lease when a renewal finds it taken over: check throws and the signal aborts", async () => {
    const { doc, renew } = leaseDoc(3_000);
    const lost: LeaseLossReason[] = [];
    const lease = startLeaseHeartbeat({ leaseMs: 3_000, until: new Date(doc.until), renew, onLost: (r) => lost.push(r) });
    await vi.advanceTimersByTimeAsync(1_100);
    lease.check();
    doc.holder = "someone else";
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lease.signal.aborted).toBe(true);
    expect(() => lease.check()).toThrow(LeaseLost);
    expect(lost).toEqual(["taken_over"]);
    // No renewal after the loss.
    const renewals = renew.mock.calls.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(renew.mock.calls.length).toBe(renewals);
    lease.stop();
  });

  it("counts the lease lost once its end comes without a renewal succeeding (store down), with the caller's error", async () => {
    const renew = vi.fn(async () => {
      throw new Error("store unavailable");
    });
    const errors: unknown[] = [];
    const lease = startLeaseHeartbeat({
      leaseMs: 3_000,
      until: new Date(Date.now() + 3_000),
      renew,
      lostError: (reason) => new Error(`custom ${reason}`),
      onRenewError: (err) => errors.push(err),
    });
    await vi.advanceTimersByTimeAsync(2_000);
    lease.check(); // renewals failed, but the lease claimed still runs
    await vi.advanceTimersByTimeAsync(800); // within the margin before its end
    expect(() => lease.check()).toThrow("custom expired");
    expect(errors.length).toBeGreaterThanOrEqual(2);
    lease.stop();
  });

  it("counts the lease lost when the event loop stalled past its end, even before a renewal ran", () => {
    const { doc, renew } = leaseDoc(3_000);
    const lease = startLeaseHeartbeat({ leaseMs: 3_000, until: new Date(doc.until), renew });
    // The clock moves without timers running (a blocked loop): the next check must not pass.
    vi.setSystemTime(Date.now() + 3_500);
    expect(() => lease.check()).toThrow(LeaseLost);
    expect(renew).not.toHaveBeenCalled();
    lease.stop();
  });

  it("stops renewing a holder that hangs past maxHoldMs, so others can take its work", async () => {
    const { doc, renew } = leaseDoc(1_000);
    const lease = startLeaseHeartbeat({ leaseMs: 1_000, until: new Date(doc.until), renew, maxHoldMs: 4_000 });
    await vi.advanceTimersByTimeAsync(6_000);
    expect(() => lease.check()).toThrow(expect.objectContaining({ reason: "held_too_long" }));
    expect(doc.until).toBeLessThan(Date.now());
    lease.stop();
  });

  it("withLeaseHeartbeat stops renewing when the work ends, by success or failure", async () => {
    const { doc, renew } = leaseDoc(900);
    await withLeaseHeartbeat({ leaseMs: 900, until: new Date(doc.until), renew }, async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    await expect(
      withLeaseHeartbeat({ leaseMs: 900, until: new Date(doc.until), renew }, async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const renewals = renew.mock.calls.length;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(renew.mock.calls.length).toBe(renewals);
  });
});
