import { centsToDecimal, type RefundRecord, type RefundStatus } from "@payrail/contracts";

/**
 * One refund request (`_id` = `rfd_` + 32 hex), for all or part of a transaction's amount, in
 * integer cents; what it is for is copied from payments when the consumer asks, so answering
 * and authorising never need another service.
 */
export interface RefundDoc {
  _id: string;
  transactionUuid: string;
  /** The checkout's `chk_` id. */
  checkoutRef: string;
  /** The checkout's number: the record's `checkout_id`. */
  checkoutNumber: number;
  merchantId: string;
  userId: string;
  amountCents: number;
  currency: string;
  status: RefundStatus;
  reason: string | null;
  /**
   * The payout attempt the refund is on: 1 from the request, one more each time a failed
   * refund is initiated again. Its hold on the ledger and its payout at payments carry it.
   */
  attempt: number;
  /** The current payout's provider transfer id; null until the provider answered. */
  refundTransactionId: string | null;
  /** Why the last payout failed (an ACH return code, or the provider's refusal code), and in words. */
  failureCode: string | null;
  failureReason: string | null;
  /**
   * When the refund, paid out, turned out to pay back a payment the consumer's bank also
   * returned (the consumer got the money twice); null or absent otherwise.
   */
  overReturnedAt?: string | null;
  /**
   * 1 at the request, one more with every status change (and its over-return mark): the `aggregate.version` of the
   * refund's events, so a subscriber can tell an older snapshot from a newer one.
   */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** The refund record (docs/api-notes.md, Refunds). */
export function toRefundRecord(doc: RefundDoc): RefundRecord {
  return {
    id: doc._id,
    transaction_uuid: doc.transactionUuid,
    checkout_id: doc.checkoutNumber,
    checkout: doc.checkoutRef,
    amount: Number(centsToDecimal(doc.amountCents)),
    currency: doc.currency,
    status: doc.status,
    reason: doc.reason,
    refund_transaction_id: doc.refundTransactionId,
    failure_code: doc.failureCode,
    failure_reason: doc.failureReason,
    over_returned_at: doc.overReturnedAt ?? null,
    created_at: doc.createdAt,
    updated_at: doc.updatedAt,
  };
}

/** Refund ids have one form; anything else names no refund (and is never looked up). */
export const REFUND_ID = /^rfd_[0-9a-f]{32}$/;
