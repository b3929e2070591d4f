import { AppError } from "@payrail/contracts";
import type { RequestMeta } from "./ports/payments.port.ts";
import { refundForMerchant } from "./refund-for-merchant.ts";
import { initiateOutcome } from "./refund-state.ts";
import { toRefundRecord, type RefundDoc } from "./refund.entity.ts";
import type { RefundsDeps } from "./refunds.deps.ts";

export const REFUND_SUCCESS = "Refund success";

/**
 * Initiate Refund Transfer: `approved` → `processing` in one conditional write, then the
 * transfer is asked of payments, then its provider id is recorded. The order makes every
 * failure resumable without paying twice: payments' transfer is idempotent per refund id, so a
 * refund found `processing` without a transfer id (a call died in between, or is still on its
 * way) is finished by asking again. Calls that find the transfer started answer the same.
 */
export async function initiateRefundTransfer(deps: RefundsDeps, meta: RequestMeta, input: { id: string }) {
  let refund = await refundForMerchant(deps, meta, input.id);
  if (initiateOutcome(refund) === "start") {
    // Money that has not arrived cannot be sent back.
    const transaction = await deps.payments.getTransaction(meta, refund.transactionUuid, { asService: true });
    if (transaction.transaction_status !== "completed") {
      throw new AppError("transaction_not_settled", `transaction ${refund.transactionUuid} is ${transaction.transaction_status}, not completed`);
    }
    const moved = await deps.refunds.move(refund._id, "approved", "processing", {}, deps.now().toISOString());
    if (moved) await deps.afterProcessing?.(refund._id);
    refund = moved ?? (await reread(deps, refund));
  }
  const outcome = initiateOutcome(refund);
  if (outcome === "conflict" || outcome === "start") {
    throw new AppError("invalid_refund_transition", `refund ${refund._id} is ${refund.status}; only an approved refund can be paid out`, {
      param: "id",
    });
  }
  if (outcome === "resume") refund = await startTransfer(deps, meta, refund);
  return { message: REFUND_SUCCESS, refund: toRefundRecord(refund) };
}

async function startTransfer(deps: RefundsDeps, meta: RequestMeta, refund: RefundDoc): Promise<RefundDoc> {
  const { transferId } = await deps.payments.startRefundTransfer(meta, {
    refundId: refund._id,
    transactionUuid: refund.transactionUuid,
    amountCents: refund.amountCents,
    currency: refund.currency,
  });
  const recorded = await deps.refunds.recordTransferId(refund._id, transferId, deps.now().toISOString());
  if (recorded) deps.logger.info({ requestId: meta.requestId, refundId: refund._id }, "refund transfer recorded");
  return recorded ?? (await reread(deps, refund));
}

async function reread(deps: RefundsDeps, refund: RefundDoc): Promise<RefundDoc> {
  return (await deps.refunds.find(refund._id)) ?? refund;
}
