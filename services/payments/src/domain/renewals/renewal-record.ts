import type { TransactionDoc } from "../transactions/transaction.entity.ts";
import type { RenewalCharge, TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";
import { transactionDoc } from "../transactions/transaction-doc.ts";

/** The transaction record of a renewal charge (sequential `id` drawn by the caller). */
export function renewalRecordDoc(a: TransferAttemptRecord, id: number, charge: RenewalCharge, transferId: string): TransactionDoc {
  const doc = transactionDoc({ ...a, amountCents: charge.amountCents ?? a.amountCents }, id, {
    transactionUuid: charge.transactionUuid,
    transferId,
    at: charge.at,
    consumerTransactionId: charge.consumerTransactionId,
    merchantTransactionId: charge.merchantTransactionId,
    description: `Subscription renewal ${charge.period}${charge.tryNumber ? ` (retry ${charge.tryNumber})` : ""} for checkout ${a._id}`,
    renewalTry: charge.tryNumber,
  });
  return { ...doc, renewalPeriod: charge.period, renewalTry: charge.tryNumber };
}
