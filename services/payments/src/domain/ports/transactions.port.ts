import type { TransactionDoc, TransactionStatus } from "../transaction.entity.ts";

/** Storage of transaction records. */
export interface TransactionsPort {
  nextId(): Promise<number>;
  /** Inserts; returns the existing record when one with this transaction_uuid is there already. */
  insertOnce(doc: TransactionDoc): Promise<TransactionDoc>;
  findByUuid(transactionUuid: string): Promise<TransactionDoc | null>;
  findByTransferId(transferId: string): Promise<TransactionDoc | null>;
  /** The user's records, newest first, optionally of one checkout (its number or `chk_` id). */
  listForUser(userId: string, limit: number, checkout?: { number?: number; ref?: string }): Promise<TransactionDoc[]>;
  /** `pending` → a final status, once; null when the record is no longer pending. */
  settle(transactionUuid: string, status: Exclude<TransactionStatus, "pending">, error: string | null, at: string): Promise<TransactionDoc | null>;
  /**
   * Counts refund payout `payoutId` of `cents` against the transaction, in one conditional
   * write, unless its live and completed payouts would then exceed `amountCents`; null then, or
   * when this payout is counted already.
   */
  reservePayout(transactionUuid: string, payoutId: string, cents: number, amountCents: number): Promise<TransactionDoc | null>;
  /**
   * A live payout failed (its cents no longer count) or completed (they add to the amount
   * refunded), once: null when the payout is not live (settled already, or never counted).
   */
  settlePayout(transactionUuid: string, payoutId: string, cents: number, outcome: "failed" | "completed", at: string): Promise<TransactionDoc | null>;
}
