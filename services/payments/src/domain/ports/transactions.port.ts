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
  /** Reserves the transaction for this refund's transfer; false when another refund holds it. */
  lockForRefund(transactionUuid: string, refundId: string): Promise<boolean>;
  /** Frees the reservation after the refund's transfer failed (no-op when another holds it). */
  releaseRefundLock(transactionUuid: string, refundId: string): Promise<void>;
}
