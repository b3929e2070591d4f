import { centsToDecimal, type TransactionRecord } from "@payrail/contracts";
import type { OutboxFields } from "@payrail/store";

/** `returned`: settled (`completed`), then sent back by the bank (an ACH return, docs/api-notes.md, Returns and blocked bank accounts). */
/** `in_review`: held by a fraud rule before any transfer (docs/decisions/0010-fraud-monitoring.md). */
export type TransactionStatus = "pending" | "completed" | "failed" | "cancelled" | "returned" | "in_review";

/**
 * One transfer's record: the specification's subscription transaction log record (snake_case,
 * answered as is) plus what payments needs internally (camelCase, never answered).
 */
export interface TransactionDoc extends OutboxFields {
  /** The transaction_uuid. */
  _id: string;
  id: number;
  transaction_uuid: string;
  processor_transaction_id: string;
  amount: number;
  user_id: string;
  consumer_transaction_id: string;
  merchant_transaction_id: string;
  checkout_id: number;
  transaction_status: TransactionStatus;
  transaction_date_time: string;
  description: string | null;
  /** NACHA's company entry description the debit was sent with; absent on records written before it was kept. */
  company_entry_description?: string;
  error: string | null;
  /** The fraud review that held the debit (`rev_…`): absent on a debit no rule flagged. */
  review_id?: string;
  /** Set when the transfer failed or came back: the ACH return code (or `cancelled`) and its meaning. */
  failure_code?: string;
  failure_reason?: string;
  /** When the return of a settled transfer was learnt. */
  returned_at?: string;
  /** An ACH return (failed or returned with an R code): its NACHA group and when it was learnt (the return-rate indexes). */
  returnGroup?: "unauthorized" | "administrative" | "other";
  returnLearntAt?: string;
  created_at: string;
  updated_at: string;
  /** The checkout's `chk_` id. */
  checkoutRef: string;
  merchantId: string;
  isSubscription: boolean;
  amountCents: number;
  currency: string;
  /** A renewal's period and try (absent on a first charge), so a late return finds what it undoes. */
  renewalPeriod?: number;
  renewalTry?: number;
  /**
   * The two ends of this transaction's transfer, so a refund sends the money back the same way
   * whichever charge of a checkout it refunds. Absent on records written before they were kept
   * (then the checkout's transfer attempt has them).
   */
  sourceFundingSource?: string;
  destinationFundingSource?: string;
  /** The fingerprint of the bank account debited (a return with a blocking code blocks it); absent when unknown. */
  sourceFingerprint?: string | null;
  /**
   * Refund payouts (by payout id) and where each stands: `live` and `completed` ones count
   * against the amount, a `failed` one no longer does. Each payout's change is one conditional
   * write together with the sums below. All absent until the first payout starts.
   */
  refundPayouts?: Record<string, RefundPayoutState>;
  /** Cents of the live and completed payouts: never above `amountCents`. */
  refundReservedCents?: number;
  /** Cents of the completed payouts: the record's `amount_refunded`. */
  amountRefundedCents?: number;
  /**
   * Counts the record's writes (1 when inserted): its events' `aggregate.version`, and what a
   * change that writes an event expects in its filter. Absent on records from before events.
   */
  version?: number;
}

export type RefundPayoutState = "live" | "failed" | "completed";

export function toTransactionRecord(doc: TransactionDoc): TransactionRecord {
  return {
    id: doc.id,
    transaction_uuid: doc.transaction_uuid,
    processor_transaction_id: doc.processor_transaction_id,
    amount: doc.amount,
    user_id: doc.user_id,
    consumer_transaction_id: doc.consumer_transaction_id,
    merchant_transaction_id: doc.merchant_transaction_id,
    checkout_id: doc.checkout_id,
    checkout: doc.checkoutRef,
    transaction_status: doc.transaction_status,
    transaction_date_time: doc.transaction_date_time,
    description: doc.description,
    company_entry_description: doc.company_entry_description ?? null,
    error: doc.error,
    ...(doc.review_id ? { review_id: doc.review_id } : {}),
    ...(doc.failure_code ? { failure_code: doc.failure_code, failure_reason: doc.failure_reason ?? "" } : {}),
    ...(doc.returned_at ? { returned_at: doc.returned_at } : {}),
    amount_refunded: amountOf(doc.amountRefundedCents ?? 0),
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

/** The record's `amount`: a JSON number in major units, computed from exact cents. */
export function amountOf(cents: number): number {
  return Number(centsToDecimal(cents));
}
