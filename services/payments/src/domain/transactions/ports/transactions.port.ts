import type { DomainEvent } from "@payrail/contracts";
import type { TransactionDoc, TransactionStatus } from "../transaction.entity.ts";

/** A status change of a record, with the fields that say why (a failure, a return). */
export interface TransactionChange {
  status: Exclude<TransactionStatus, "pending">;
  error: string | null;
  failure_code?: string;
  failure_reason?: string;
  returned_at?: string;
  returnGroup?: "unauthorized" | "administrative" | "other";
  returnLearntAt?: string;
  at: string;
}

/** Storage of transaction records. */
export interface TransactionsPort {
  nextId(): Promise<number>;
  /**
   * Inserts the record with the event of its creation (one write); returns the existing record
   * when one with this transaction_uuid is there already (then nothing is written).
   */
  insertOnce(doc: TransactionDoc, event: DomainEvent): Promise<{ inserted: boolean; doc: TransactionDoc }>;
  findByUuid(transactionUuid: string): Promise<TransactionDoc | null>;
  findByTransferId(transferId: string): Promise<TransactionDoc | null>;
  /**
   * The user's records, newest first, optionally of one checkout (its number or `chk_` id), and
   * only those older than record `beforeId` when given (the portal's paging), only those of
   * `merchantId` when given (a sandbox token's merchant).
   */
  listForUser(userId: string, limit: number, only?: { number?: number; ref?: string; beforeId?: number; merchantId?: string | undefined }): Promise<TransactionDoc[]>;
  /**
   * Moves the record from `expected.status` (`pending` → final, `completed` → `returned`) with
   * its event, in one conditional write on the status and on `version` (as read): null when the
   * record is no longer in that status or was written meanwhile.
   */
  settle(transactionUuid: string, expected: { status: TransactionStatus; version: number | undefined }, change: TransactionChange, event: DomainEvent): Promise<TransactionDoc | null>;
  /**
   * Counts refund payout `payoutId` of `cents` against the transaction, in one conditional
   * write, unless the transaction is no longer `completed` (returned money is not paid back), or its live and completed payouts would then exceed `amountCents`; null then, or
   * when this payout is counted already.
   */
  reservePayout(transactionUuid: string, payoutId: string, cents: number, amountCents: number): Promise<TransactionDoc | null>;
  /**
   * A live payout failed (its cents no longer count) or completed (they add to the amount
   * refunded), once, with its event, in one conditional write on the payout's state and on
   * `version` (as read): null when the payout is not live or the record was written meanwhile.
   */
  settlePayout(
    transactionUuid: string,
    expectedVersion: number | undefined,
    payout: { id: string; cents: number; outcome: "failed" | "completed" },
    at: string,
    event: DomainEvent,
  ): Promise<TransactionDoc | null>;
  /** Records still `pending` whose last change lies between `after` and `before`, in that order (the reconciler pages through them). */
  pendingBetween(after: string, before: string, limit: number): Promise<TransactionDoc[]>;
  /** The merchant's debits (records) created since `since`: an index count, no document read. */
  countDebits(merchantId: string, since: string): Promise<number>;
  /** The merchant's records created in [from, to), newest first, after a cursor (the exports). */
  listForMerchant(merchantId: string, window: { from?: string | undefined; to?: string | undefined }, limit: number, after?: Pick<TransactionDoc, "_id" | "created_at">): Promise<TransactionDoc[]>;
  /**
   * Records in `status` last changed at or after `since`, oldest change first, those after the
   * cursor `after` (its change time and uuid) when given: the day totals' backfill pages through them.
   */
  finalSince(status: "completed" | "returned", since: string, limit: number, after?: { updatedAt: string; id: string }): Promise<TransactionDoc[]>;
  /** The merchant's ACH returns learnt since `since`, of one group or all: an index count. */
  countReturns(merchantId: string, since: string, group?: "unauthorized" | "administrative"): Promise<number>;
  /** Fraud screening: debits from the bank account `fingerprint` created since `since` (until `until`), at any merchant: an index count. */
  countFromAccount(fingerprint: string, since: string, until?: string): Promise<number>;
  /** Fraud screening: the consumer's debits created between `since` and `until`, at any merchant: an index count. */
  countForUser(userId: string, since: string, until: string): Promise<number>;
  /** Fraud screening: returns of debits from the bank account learnt since `since`: an index count. */
  countAccountReturns(fingerprint: string, since: string): Promise<number>;
  /** The merchant's debits created in [from, to): an index count (monthly return rates). */
  countDebitsBetween(merchantId: string, from: string, to: string): Promise<number>;
  /** The merchant's returns (or unauthorized ones) learnt in [from, to): an index count. */
  countReturnsBetween(merchantId: string, from: string, to: string, group?: "unauthorized"): Promise<number>;
  /** Inserts a debit held for review (`in_review`, no transfer yet, no event: the review carries review.opened); the existing record when there is one. */
  insertHeld(doc: TransactionDoc): Promise<{ inserted: boolean; doc: TransactionDoc }>;
  /**
   * Moves a held record out of `in_review` (its transfer sent: `pending`; or cancelled) with its
   * event, in one conditional write on the status and `version` as read: null when it moved already.
   */
  release(transactionUuid: string, expectedVersion: number | undefined, set: Partial<TransactionDoc>, event: DomainEvent): Promise<TransactionDoc | null>;
}
