import type { SignInFailureRecord } from "../merchant-user.entity.ts";

/** Failed sign-in counters per client address and email (API.md §12 lockout). */
export interface SignInFailuresPort {
  find(key: string): Promise<SignInFailureRecord | null>;
  /**
   * Counts one failure in one conditional write: the window's count goes up, or a new window
   * starts when the last one began before `windowFloor`. Answers the record after the write.
   */
  count(key: string, now: string, windowFloor: string, expiresAt: string): Promise<SignInFailureRecord>;
  /** Locks the key until `until` unless it is locked already (racing failures lock once). */
  lock(key: string, until: string): Promise<void>;
  clear(key: string): Promise<void>;
  purge(now: string, limit: number): Promise<number>;
}
