/**
 * Per-merchant sums of settled debit amounts by week (count, cents, cents squared): the amount
 * rule's 90-day distribution is ~13 small documents read through one index, never a scan.
 */
export interface AmountStatsPort {
  /** Adds one settled debit (dated by its creation) to its merchant's week. */
  add(merchantId: string, createdAt: string, amountCents: number): Promise<void>;
  /** The sums over the weeks from the one holding `since` on. */
  since(merchantId: string, since: string): Promise<{ count: number; sum: number; sumSquares: number }>;
}

/** Whole weeks since the epoch (a Thursday): the bucket of a time. */
export function weekOf(iso: string): number {
  return Math.floor(Date.parse(iso) / (7 * 86_400_000));
}
