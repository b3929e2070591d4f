import { describe, expect, it } from "vitest";
import type { SignInFailureRecord } from "./merchant-user.entity.ts";
import { decideAttempt, delayAfter, SIGN_IN_LIMITS } from "./sign-in-delay.ts";

const T0 = Date.parse("2030-01-01T00:00:00.000Z");
const MINUTE = 60_000;
const rule = SIGN_IN_LIMITS.account;

/** Counts attempts at these times (ms after T0), each allowed one written as the store would. */
function attempts(times: number[], from: SignInFailureRecord | null = null) {
  let record = from;
  return times.map((t) => {
    const decision = decideAttempt(record, T0 + t, rule);
    if (decision.allowed) record = { _id: "k", ...decision.next };
    return decision;
  });
}

describe("sign-in delays", () => {
  it("starts a 1-minute delay at the 5th attempt within 15 minutes, then doubles it up to 15 minutes", () => {
    expect([1, 4, 5, 6, 7, 8, 9, 20].map((n) => delayAfter(n, rule) / MINUTE)).toEqual([0, 0, 1, 2, 4, 8, 15, 15]);
    const decisions = attempts([0, 1, 2, 3, 4]);
    expect(decisions.slice(0, 4).every((d) => d.allowed && d.next.blockedUntil === null)).toBe(true);
    expect(decisions[4]).toMatchObject({ allowed: true, next: { count: 5, blockedUntil: new Date(T0 + 4 + MINUTE).toISOString() } });
  });

  it("refuses attempts during the delay without counting them, and counts the next one after it with a doubled delay", () => {
    const five = attempts([0, 1, 2, 3, 4]);
    const last = five[4]!;
    if (!last.allowed) throw new Error("expected the 5th attempt to be counted");
    const record = { _id: "k", ...last.next };
    expect(decideAttempt(record, T0 + 30_000, rule)).toEqual({ allowed: false, retryAfterMs: MINUTE + 4 - 30_000 });
    const next = decideAttempt(record, T0 + 4 + MINUTE, rule);
    expect(next).toMatchObject({ allowed: true, next: { count: 6, blockedUntil: new Date(T0 + 4 + 3 * MINUTE).toISOString() } });
  });

  it("starts afresh after a quiet window: below the limit 15 minutes from the first attempt, in a delay 15 minutes after it ends", () => {
    expect(attempts([0, 1, 2, 3, 15 * MINUTE])[4]).toMatchObject({ allowed: true, next: { count: 1, blockedUntil: null } });
    const delayed = attempts([0, 1, 2, 3, 4]);
    const last = delayed[4]!;
    if (!last.allowed) throw new Error("expected the 5th attempt to be counted");
    const record = { _id: "k", ...last.next };
    expect(decideAttempt(record, T0 + 4 + MINUTE + 15 * MINUTE - 1, rule)).toMatchObject({ allowed: true, next: { count: 6 } });
    expect(decideAttempt(record, T0 + 4 + MINUTE + 15 * MINUTE, rule)).toMatchObject({ allowed: true, next: { count: 1, blockedUntil: null } });
  });

  it("keeps a record until its window, delay and quiet time are over", () => {
    const first = decideAttempt(null, T0, rule);
    expect(first).toMatchObject({ allowed: true, next: { expiresAt: new Date(T0 + 15 * MINUTE).toISOString() } });
    const fifth = attempts([0, 1, 2, 3, 4])[4]!;
    expect(fifth).toMatchObject({ allowed: true, next: { expiresAt: new Date(T0 + 4 + 16 * MINUTE).toISOString() } });
  });
});
