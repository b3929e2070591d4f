import { AppError } from "@payrail/contracts";
import type { RequestMeta } from "./ports/checkouts.port.ts";
import type { TransferDeps } from "./transfer.deps.ts";

/**
 * Sends a refund's money back: one provider transfer from the merchant's funding source to
 * the consumer's, the two ends of the original transfer swapped. Safe to call any number of
 * times, concurrently too: the refund-transfer record is insert-or-get by refund id, and the
 * refund id is the provider's idempotency key, so a call that died after the provider answered
 * (or racing calls) end with the same one transfer. The transaction's refund lock means two
 * different refunds can never both pay out, whatever the refunds service asks.
 */
export async function startRefundTransfer(
  deps: TransferDeps,
  meta: RequestMeta,
  input: { refund_id: string; transaction_uuid: string; amount_cents: number; currency: string },
): Promise<{ transfer_id: string }> {
  const transaction = await deps.transactions.findByUuid(input.transaction_uuid);
  if (!transaction) throw new AppError("transaction_not_found", `no transaction ${input.transaction_uuid}`, { param: "transaction_uuid" });
  if (transaction.transaction_status !== "completed") {
    throw new AppError("transaction_not_settled", `transaction ${transaction._id} is ${transaction.transaction_status}, not completed`);
  }
  if (input.currency !== transaction.currency || input.amount_cents > transaction.amountCents) {
    throw new AppError("parameter_invalid", "a refund never exceeds the transaction's amount", { param: "amount_cents" });
  }
  const known = await deps.refundTransfers.find(input.refund_id);
  if (known?.transferId && known.transactionUuid === transaction._id) return { transfer_id: known.transferId };

  // Both ends come from payments' own record of the original transfer.
  const attempt = await deps.attempts.find(transaction.checkoutRef);
  if (!attempt?.fundingSourceUrl) throw new Error(`transaction ${transaction._id} has no recorded funding source`);
  if (!(await deps.transactions.lockForRefund(transaction._id, input.refund_id))) {
    throw new AppError("refund_exists", `another refund of transaction ${transaction._id} is being paid out`);
  }
  const now = deps.now().toISOString();
  const record = await deps.refundTransfers.findOrCreate({
    _id: input.refund_id,
    transactionUuid: transaction._id,
    merchantId: transaction.merchantId,
    amountCents: input.amount_cents,
    currency: input.currency,
    transferId: null,
    status: "pending",
    failureCode: null,
    createdAt: now,
    updatedAt: now,
  });
  if (record.transactionUuid !== transaction._id) {
    throw new AppError("parameter_invalid", `refund ${record._id} belongs to another transaction`, { param: "refund_id" });
  }
  if (record.transferId) return { transfer_id: record.transferId };

  const transfer = await deps.transfers.createTransfer({
    sourceFundingSource: attempt.destinationFundingSource,
    destinationFundingSource: attempt.fundingSourceUrl,
    amountCents: record.amountCents,
    currency: record.currency,
    idempotencyKey: record._id,
    metadata: { refund_id: record._id, transaction_uuid: transaction._id },
  });
  await deps.refundTransfers.recordTransferId(record._id, transfer.transferId, deps.now().toISOString());
  deps.logger.info({ requestId: meta.requestId, refundId: record._id, transactionUuid: transaction._id }, "refund transfer started");
  return { transfer_id: transfer.transferId };
}
