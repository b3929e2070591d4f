/**
 * Counters of accepted send_code requests per fixed window, shared by every identity instance
 * (so by every gateway in front of them). Each change is one conditional write.
 */
export interface SendBudgetsPort {
  /**
   * Counts one send against `bucket`'s window if it has fewer than `limit` so far; false when the
   * window is full. `expiresAt` is when the counter may be purged.
   */
  take(bucket: string, windowStart: string, limit: number, expiresAt: string): Promise<boolean>;
  /** Gives back one send taken from the window (the next budget refused it). */
  giveBack(bucket: string, windowStart: string): Promise<void>;
  /** Deletes counters whose window ended before `now`, at most `max`. */
  purge(now: string, max: number): Promise<number>;
}
