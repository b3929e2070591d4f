/**
 * A merchant's running total (`_id` = the merchant id): every counted balance transaction's
 * cents added up, so the balance never sums a merchant's history. `seq` counts the writes: each
 * one expects the `seq` it read, so of two racing writers one wins and the other reads again.
 */
export interface BalanceDoc {
  _id: string;
  totalCents: number;
  seq: number;
  /** The row the last write counted, whose `counted` flag may not be set yet. */
  lastBtx: string | null;
  currency: string;
}
