import { AppError } from "@payrail/contracts";
import { createTransferOnce } from "../transfers/create-transfer-once.ts";
import { pendingTransfer } from "../transfers/provider-transfer.record.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import { TransferRefused } from "../transfers/ports/transfer.port.ts";
import { payoutId, type RefundTransferRecord } from "./refund-transfer.entity.ts";
import { refundPayoutEnds, settledTransaction, transactionReturned } from "./refund-payout-checks.ts";
import { settleRefundPayout } from "./settle-refund-payout.ts";
import type { RefundPayoutDeps } from "../transfers/transfer.deps.ts";
import { REFUND } from "../transfers/company-entry-description.ts";

export type StartedPayout = { status: "pending"; transfer_id: string } | { status: "failed"; failure_code: string; failure_reason: string };

/**
 * Sends (part of) a transaction's money back: payout `attempt` of a refund, one provider
 * transfer from the merchant's funding source to the consumer's, the ends of the original
 * transfer swapped. Safe to call any number of times, concurrently too: the payout record is
 * insert-or-get by payout id, which is also the provider's idempotency key, so racing calls,
 * or a call that died after the provider answered, end with the same one transfer. A later
 * attempt starts only once the one before failed (a refund never has two live payouts), and the
 * transaction counts each payout against its amount in one conditional write, so payouts never
 * send back more than it, whatever the refunds service asks.
 */
export async function startRefundTransfer(
  deps: RefundPayoutDeps,
  meta: RequestMeta,
  input: { refund_id: string; attempt: number; transaction_uuid: string; amount_cents: number; currency: string },
): Promise<StartedPayout> {
  const transaction = await settledTransaction(deps, input);
  const id = payoutId(input.refund_id, input.attempt);
  const known = await deps.refundTransfers.find(id);
  if (known) {
    const answer = await answerOf(deps, known, transaction._id);
    if (answer) return answer;
  } else if (input.attempt > 1) {
    const previous = await deps.refundTransfers.find(payoutId(input.refund_id, input.attempt - 1));
    if (previous?.status !== "failed" && previous?.status !== "cancelled") {
      throw new AppError("invalid_refund_transition", `payout ${input.attempt - 1} of refund ${input.refund_id} has not failed`, { param: "attempt" });
    }
  }
  const ends = await refundPayoutEnds(deps, transaction);
  if (!(await deps.transactions.reservePayout(transaction._id, id, input.amount_cents, transaction.amountCents))) {
    // Counted already by a racing (or crashed) call for this payout: carry on with it.
    const now = await deps.transactions.findByUuid(transaction._id);
    if (now?.transaction_status === "returned") throw transactionReturned(transaction._id);
    if (!now?.refundPayouts?.[id]) {
      throw new AppError("amount_exceeds_refundable", `payouts of transaction ${transaction._id} would exceed its amount`, { param: "amount_cents" });
    }
  }
  const at = deps.now().toISOString();
  const record = await deps.refundTransfers.findOrCreate(
    pendingTransfer<RefundTransferRecord>(
      {
        _id: id,
        refundId: input.refund_id,
        attempt: input.attempt,
        transactionUuid: transaction._id,
        merchantId: transaction.merchantId,
        amountCents: input.amount_cents,
        currency: input.currency,
      },
      at,
    ),
  );
  const answer = await answerOf(deps, record, transaction._id);
  if (answer) return answer;

  try {
    const input = {
      sourceFundingSource: ends.merchant,
      destinationFundingSource: ends.consumer,
      amountCents: record.amountCents,
      currency: record.currency,
      idempotencyKey: record._id,
      metadata: { refund_id: record.refundId, transaction_uuid: transaction._id, company_entry_description: REFUND },
    };
    // The consumer's customer at the provider lists the payout too (it receives it).
    const transfer = await createTransferOnce(deps, input, record.createdAt, async () => (await deps.attempts.find(transaction.checkoutRef))?.customerUrl ?? null);
    await deps.refundTransfers.recordTransferId(record._id, transfer.transferId, deps.now().toISOString());
    await deps.transferRecorded(meta.requestId, transfer.transferId);
    deps.logger.info({ requestId: meta.requestId, refundId: record.refundId, attempt: record.attempt, transactionUuid: transaction._id }, "refund transfer started");
    return { status: "pending", transfer_id: transfer.transferId };
  } catch (err) {
    // Any other failure may not be final (no answer came): the next call retries with the same key.
    if (!(err instanceof TransferRefused)) throw err;
    const failure = { code: err.providerCode ?? "refused", reason: err.message };
    await settleRefundPayout(deps, record, "failed", failure);
    deps.logger.warn({ requestId: meta.requestId, refundId: record.refundId, attempt: record.attempt, failureCode: failure.code }, "refund transfer refused");
    return { status: "failed", failure_code: failure.code, failure_reason: failure.reason };
  }
}

/** What a payout that got as far as the provider answers: its transfer, or its refusal; null before. */
async function answerOf(deps: RefundPayoutDeps, payout: RefundTransferRecord, transactionUuid: string): Promise<StartedPayout | null> {
  if (payout.transactionUuid !== transactionUuid) {
    throw new AppError("parameter_invalid", `refund ${payout.refundId} belongs to another transaction`, { param: "refund_id" });
  }
  if (payout.transferId) return { status: "pending", transfer_id: payout.transferId };
  if (payout.status === "pending") return null;
  // Refused: also frees the transaction's count again, should the call that recorded it have died before.
  const failure = { code: payout.failureCode ?? "refused", reason: payout.failureReason ?? "The transfer provider refused the transfer" };
  await settleRefundPayout(deps, payout, "failed", failure);
  return { status: "failed", failure_code: failure.code, failure_reason: failure.reason };
}
