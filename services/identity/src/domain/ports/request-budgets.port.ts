/**
 * Request counters per limit key and window that every gateway draws its blocks from
 * (docs/decisions/0049-shared-request-limits.md). Each change is one conditional write.
 */
export interface RequestBudgetsPort {
  /**
   * Reserves up to `count` of the `limit` requests `id`'s window allows: all of them while the
   * window has that many left, else what it has left (0 when spent). `expiresAt` is when the
   * counter may be purged. Answers how many were granted and the window's total after.
   */
  reserve(id: string, limit: number, count: number, expiresAt: string): Promise<{ granted: number; reserved: number }>;
  /** Deletes counters whose windows ended before `now`, at most `max`. */
  purge(now: string, max: number): Promise<number>;
}
