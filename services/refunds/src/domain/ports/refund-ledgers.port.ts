/** One refund's share of a ledger: its cents, for which payout attempt, since when. */
export interface RefundHold {
  cents: number;
  /** The refund's attempt the hold was taken for: 1 at the request, one more per payout retried. */
  attempt: number;
  at: string;
}

/**
 * What the refunds of one transaction (`_id` = transaction_uuid) hold of its amount. A refund
 * holds its cents from its request until it is rejected or its payout fails, and for good once
 * paid back; `reservedCents` is the sum of `holds`, never above `amountCents`. Every change is
 * one conditional write on this one document, so concurrent requests cannot together take
 * more than the transaction's amount, and taking or giving back a hold is idempotent.
 */
export interface RefundLedger {
  _id: string;
  amountCents: number;
  reservedCents: number;
  /** By refund id. */
  holds: Record<string, RefundHold>;
  /** When the transaction's payment was returned by the bank (its first transaction.returned); absent before. */
  returnedAt?: string;
  createdAt: string;
}

export interface RefundLedgersPort {
  /** Creates the transaction's ledger, holding nothing, unless it exists already. */
  open(ledger: RefundLedger): Promise<void>;
  find(transactionUuid: string): Promise<RefundLedger | null>;
  /**
   * Adds the refund's hold in one conditional write, if the refund holds nothing yet and the
   * transaction's `amountCents` leaves room for it; false otherwise.
   */
  reserve(transactionUuid: string, refundId: string, hold: RefundHold, amountCents: number): Promise<boolean>;
  /** Records that the transaction's payment was returned, once (a later return keeps the first time); no-op without a ledger. */
  markReturned(transactionUuid: string, at: string): Promise<void>;
  /** Gives the refund's hold of `attempt` back (no-op when it holds nothing, or a hold of another attempt). */
  release(transactionUuid: string, refundId: string, attempt: number, cents: number): Promise<void>;
}
