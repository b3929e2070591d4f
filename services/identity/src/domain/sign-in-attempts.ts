import type { SignInFailureRecord } from "./merchant-user.entity.ts";
import type { SignInFailuresPort } from "./ports/sign-in-failures.port.ts";
import { decideAttempt, type CountedAttempt, type SignInRule } from "./sign-in-delay.ts";

/** An attempt counted against a key, with what it replaced (to give it back when the password was right). */
export interface CountedFor {
  key: string;
  previous: SignInFailureRecord | null;
  next: CountedAttempt;
}

export type Admission = { allowed: true; counted: CountedFor } | { allowed: false; retryAfterMs: number };

/** Racing attempts on one key: each loser reads again, a few times. */
const MAX_WRITE_ROUNDS = 4;

/**
 * Counts one sign-in attempt against `key` in one conditional write, unless the key is in its
 * delay. A storm of attempts on one key that keeps losing the write is refused for a second.
 */
export async function admitAttempt(port: SignInFailuresPort, key: string, rule: SignInRule, now: number): Promise<Admission> {
  for (let round = 0; round < MAX_WRITE_ROUNDS; round++) {
    const previous = await port.find(key);
    const decision = decideAttempt(previous, now, rule);
    if (!decision.allowed) return decision;
    const expected = previous && { count: previous.count, windowStart: previous.windowStart };
    if (await port.write(key, expected, decision.next)) return { allowed: true, counted: { key, previous, next: decision.next } };
  }
  return { allowed: false, retryAfterMs: 1_000 };
}

/** Takes back a counted attempt whose password was right. */
export function giveBackAttempt(port: SignInFailuresPort, counted: CountedFor): Promise<void> {
  return port.giveBack(counted.key, { count: counted.next.count, windowStart: counted.next.windowStart }, counted.previous);
}
