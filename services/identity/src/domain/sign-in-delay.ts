import type { SignInFailureRecord } from "./merchant-user.entity.ts";

/** How many attempts one key may make before it is slowed, and how the delay grows. */
export interface SignInRule {
  /** The attempt that reaches this count (within `windowMs` of the first) starts the delay. */
  limit: number;
  /** The counting window, and the quiet time after a delay that starts the count afresh. */
  windowMs: number;
  /** The first delay; each further counted attempt doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

const MINUTE = 60_000;

/**
 * The dashboard's sign-in limits (docs/decisions/0004-sign-in-limits.md): per account whatever
 * the address, 5 in 15 minutes; per client address across emails, 20. Then 1, 2, 4, 8, 15, 15 …
 * minutes: never a lock-out, which would hand anyone who knows an email a way to lock its owner out.
 */
export const SIGN_IN_LIMITS = {
  account: { limit: 5, windowMs: 15 * MINUTE, baseDelayMs: MINUTE, maxDelayMs: 15 * MINUTE },
  address: { limit: 20, windowMs: 15 * MINUTE, baseDelayMs: MINUTE, maxDelayMs: 15 * MINUTE },
} as const satisfies Record<string, SignInRule>;

/** The record's fields after one more counted attempt. */
export type CountedAttempt = Omit<SignInFailureRecord, "_id">;

export type AttemptDecision = { allowed: true; next: CountedAttempt } | { allowed: false; retryAfterMs: number };

/** The delay the `count`th attempt of a window starts (none below the limit). */
export function delayAfter(count: number, rule: SignInRule): number {
  if (count < rule.limit) return 0;
  return Math.min(rule.baseDelayMs * 2 ** Math.min(count - rule.limit, 30), rule.maxDelayMs);
}

/**
 * Whether one more attempt may be made at `now`, and if so the record that counts it. Every
 * attempt is counted before its password is checked (a success gives it back), so racing
 * guesses cannot all slip in before the first of them is counted. An attempt refused by the
 * delay is not counted: the delay grows with guesses actually tried, not with the refused.
 */
export function decideAttempt(record: SignInFailureRecord | null, now: number, rule: SignInRule): AttemptDecision {
  const blockedUntil = record?.blockedUntil ? Date.parse(record.blockedUntil) : null;
  if (blockedUntil !== null && blockedUntil > now) return { allowed: false, retryAfterMs: blockedUntil - now };
  // A window below the limit ends `windowMs` after its first attempt; a delayed one `windowMs` after the delay.
  const fresh = record === null || (blockedUntil ?? Date.parse(record.windowStart)) + rule.windowMs <= now;
  const count = fresh ? 1 : record.count + 1;
  const windowStart = fresh ? new Date(now).toISOString() : record.windowStart;
  const delay = delayAfter(count, rule);
  const until = delay > 0 ? now + delay : null;
  return {
    allowed: true,
    next: {
      count,
      windowStart,
      blockedUntil: until === null ? null : new Date(until).toISOString(),
      expiresAt: new Date((until ?? Date.parse(windowStart)) + rule.windowMs).toISOString(),
    },
  };
}
