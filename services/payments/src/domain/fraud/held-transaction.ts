import { transactionEvent, type PaymentEventsDeps } from "../shared/payment-events.ts";
import type { TransactionsPort } from "../transactions/ports/transactions.port.ts";
import type { ReviewRecord } from "./review.entity.ts";
import type { TransactionDoc } from "../transactions/transaction.entity.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";
import { transactionDoc } from "../transactions/transaction-doc.ts";

/**
 * The record of a first debit held for review: `in_review`, its review named, no transfer yet
 * (`processor_transaction_id` empty until the approval sends it), dated when it was held.
 */
export function heldTransactionDoc(a: TransferAttemptRecord, id: number, review: Pick<ReviewRecord, "_id" | "openedAt">): TransactionDoc {
  const doc = transactionDoc({ ...a, initiatedAt: review.openedAt, transferId: "" }, id);
  return held(doc, review);
}

/** A record made `in_review` by `review`. */
export function held(doc: TransactionDoc, review: Pick<ReviewRecord, "_id">): TransactionDoc {
  return { ...doc, transaction_status: "in_review", review_id: review._id };
}

const FAILURE = {
  cancelled: { code: "review_cancelled", reason: "The merchant cancelled the debit after a fraud review; no money moved." },
  expired: { code: "review_expired", reason: "The debit was held for a fraud review and cancelled when nobody decided in time; no money moved." },
} as const;

/**
 * A held debit's review was cancelled or expired: its record becomes `cancelled` with
 * transaction.failed (`failure_code` review_cancelled / review_expired), in one conditional
 * write on `in_review`; `missing` writes the held record first when the hold stopped before it.
 */
export async function cancelHeldRecord(
  deps: { transactions: TransactionsPort } & PaymentEventsDeps,
  review: ReviewRecord & { status: "cancelled" | "expired" },
  missing: () => Promise<TransactionDoc | null>,
): Promise<void> {
  const failure = FAILURE[review.status];
  const change = { transaction_status: "cancelled" as const, error: failure.code, failure_code: failure.code, failure_reason: failure.reason, updated_at: review.closedAt! };
  const record = (await deps.transactions.findByUuid(review.transactionUuid)) ?? (await missing());
  if (record?.transaction_status !== "in_review") return;
  const after: TransactionDoc = { ...record, ...change, version: (record.version ?? 1) + 1 };
  if (await deps.transactions.release(record._id, record.version, change, transactionEvent(after, deps.livemode))) deps.events.written();
}
