import type { SignInFailureRecord } from "../merchant-user.entity.ts";

/** The state a conditional write expects to find: the record's count in its window. */
export type AttemptState = Pick<SignInFailureRecord, "count" | "windowStart">;

/**
 * Sign-in attempt counters per account and per client address, shared by every identity
 * instance (docs/decisions/0004-sign-in-limits.md). Each change is one conditional write.
 */
export interface SignInFailuresPort {
  find(key: string): Promise<SignInFailureRecord | null>;
  /**
   * Writes `next` if the key is still in the `expected` state (null: no record yet); false when
   * another attempt wrote first.
   */
  write(key: string, expected: AttemptState | null, next: Omit<SignInFailureRecord, "_id">): Promise<boolean>;
  /**
   * Takes back an attempt counted as `written` (its password was right): the record becomes
   * `previous` again (null: none) if nothing was counted since, else one attempt less.
   */
  giveBack(key: string, written: AttemptState, previous: SignInFailureRecord | null): Promise<void>;
  /** Forgets the key's attempts (its account signed in). */
  clear(key: string): Promise<void>;
  purge(now: string, limit: number): Promise<number>;
}
