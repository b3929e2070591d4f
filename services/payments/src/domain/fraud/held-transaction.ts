import type { ReviewRecord } from "../review.entity.ts";
import type { TransactionDoc } from "../transaction.entity.ts";
import type { TransferAttemptRecord } from "../transfer-attempt.entity.ts";
import { transactionDoc } from "../transfer-steps.ts";

/**
 * The record of a first debit held for review: `in_review`, its review named, no transfer yet
 * (`processor_transaction_id` empty until the approval sends it), dated when it was held.
 */
export function heldTransactionDoc(a: TransferAttemptRecord, id: number, review: Pick<ReviewRecord, "_id" | "openedAt">): TransactionDoc {
  const doc = transactionDoc({ ...a, initiatedAt: review.openedAt, transferId: "" }, id);
  return { ...doc, transaction_status: "in_review", review_id: review._id };
}
