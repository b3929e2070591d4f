import { chargeEntryDescription } from "../transfers/company-entry-description.ts";
import { amountOf, type TransactionDoc } from "./transaction.entity.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";

/** Which transfer a record is of: the attempt's first charge, or one of a subscription's renewals. */
export interface ChargeFacts {
  transactionUuid: string;
  transferId: string;
  at: string;
  consumerTransactionId: string;
  merchantTransactionId: string;
  description: string;
  /** A renewal's try (0 = its period's first presentment); absent on the first charge. */
  renewalTry?: number;
}

function firstCharge(a: TransferAttemptRecord): ChargeFacts {
  return {
    transactionUuid: a.transactionUuid,
    transferId: a.transferId!,
    // Dated when the transfer was initiated, whichever call writes the record.
    at: a.initiatedAt!,
    consumerTransactionId: a.consumerTransactionId,
    merchantTransactionId: a.merchantTransactionId,
    description: a.isSubscription ? `Subscription payment for checkout ${a._id}` : `Payment for checkout ${a._id}`,
  };
}

/** The transaction record of one of the attempt's transfers (sequential `id` drawn by the caller). */
export function transactionDoc(a: TransferAttemptRecord, id: number, charge: ChargeFacts = firstCharge(a)): TransactionDoc {
  return {
    _id: charge.transactionUuid,
    id,
    transaction_uuid: charge.transactionUuid,
    processor_transaction_id: charge.transferId,
    amount: amountOf(a.amountCents),
    user_id: a.userId,
    consumer_transaction_id: charge.consumerTransactionId,
    merchant_transaction_id: charge.merchantTransactionId,
    checkout_id: a.checkoutNumber,
    transaction_status: "pending",
    transaction_date_time: charge.at,
    description: charge.description,
    company_entry_description: chargeEntryDescription(a.companyEntryDescription, charge.renewalTry),
    error: null,
    created_at: charge.at,
    updated_at: charge.at,
    checkoutRef: a._id,
    merchantId: a.merchantId,
    isSubscription: a.isSubscription,
    amountCents: a.amountCents,
    currency: a.currency,
    sourceFundingSource: a.fundingSourceUrl!,
    destinationFundingSource: a.destinationFundingSource,
    sourceFingerprint: a.fundingFingerprint ?? null,
    version: 1,
  };
}
