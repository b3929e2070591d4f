import { centsToDecimal, type TransactionRecord } from "@payrail/contracts";

export type TransactionStatus = "pending" | "completed" | "failed" | "cancelled";

/**
 * One transfer's record: the specification's subscription transaction log record (snake_case,
 * answered as is) plus what payments needs internally (camelCase, never answered).
 */
export interface TransactionDoc {
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
  error: string | null;
  created_at: string;
  updated_at: string;
  /** The checkout's `chk_` id. */
  checkoutRef: string;
  merchantId: string;
  isSubscription: boolean;
  amountCents: number;
  currency: string;
  /**
   * The refund whose transfer may send this transaction's money back (set before that transfer
   * is asked for, cleared only when it fails): two refunds can never both pay out. Absent
   * until the first refund transfer starts.
   */
  refundLock?: string | null;
}

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
    transaction_status: doc.transaction_status,
    transaction_date_time: doc.transaction_date_time,
    description: doc.description,
    error: doc.error,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

/** The record's `amount`: a JSON number in major units, computed from exact cents. */
export function amountOf(cents: number): number {
  return Number(centsToDecimal(cents));
}
