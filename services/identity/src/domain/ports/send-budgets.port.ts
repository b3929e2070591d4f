/**
 * Counters of accepted send_code requests per bucket and slot of a sliding window, shared by
 * every identity instance (so by every gateway in front of them). Each change is one
 * conditional write.
 */
export interface SendBudgetsPort {
  /** The counts of `bucket` in these slots (ISO starts); a slot without a counter is absent. */
  counts(bucket: string, slots: readonly string[]): Promise<Map<string, number>>;
  /**
   * Counts one send in `bucket`'s slot if it has fewer than `limit` so far; false when it is
   * full. `expiresAt` is when the counter may be purged.
   */
  take(bucket: string, slot: string, limit: number, expiresAt: string): Promise<boolean>;
  /** Gives back one send taken from the slot (a later budget refused it). */
  giveBack(bucket: string, slot: string): Promise<void>;
  /** Deletes counters that stopped counting before `now`, at most `max`. */
  purge(now: string, max: number): Promise<number>;
}
