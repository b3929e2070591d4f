/** What one final debit adds to its merchant's day: `settled` counts it, `returned` takes it back. */
export interface DayTotalEntry {
  transactionUuid: string;
  merchantId: string;
  /** The debit's creation time (ISO); its UTC date is the day it counts on. */
  createdAt: string;
  amountCents: number;
  outcome: "settled" | "returned";
}

/**
 * One merchant's settled debits of one UTC day (by creation, as the debit counts are), and those
 * of that day's debits the bank returned since (the return rates count returns by debit day too).
 */
export interface DayTotal {
  day: string;
  settled: number;
  settledCents: number;
  returned: number;
  returnedCents: number;
}

/**
 * Per-merchant per-day settled totals (`payment_day_totals`), kept exact by one conditional write
 * per debit and outcome: the day's document remembers which debits it counted and how, so a
 * replayed notice, the reconciler or the backfill counting a debit again changes nothing.
 */
export interface DayTotalsPort {
  record(entry: DayTotalEntry): Promise<void>;
  /** The merchant's days from `fromDay` (YYYY-MM-DD) on: one index-served read of at most that many documents. */
  since(merchantId: string, fromDay: string): Promise<DayTotal[]>;
  /** Whether the one-time backfill of the debits settled before the totals existed has run. */
  backfilled(): Promise<boolean>;
  markBackfilled(at: string): Promise<void>;
}
