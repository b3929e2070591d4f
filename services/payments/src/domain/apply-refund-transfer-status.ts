import type { RefundRecord } from "@payrail/contracts";
import { transferFailureReason } from "./failure-reason.ts";
import type { RequestMeta } from "./ports/checkouts.port.ts";
import type { RefundTransferRecord } from "./refund-transfer.entity.ts";
import { settleRefundPayout } from "./settle-refund-payout.ts";
import type { TransferDeps } from "./transfer.deps.ts";

/**
 * A refund payout's status, re-read from the provider (the event only says "look at it").
 * Once final it is settled here (the payout, the transaction's sums, the checkout's figure) and
 * refunds is told, which moves the refund record; a returned payout carries the ACH code and
 * its reason. Every step is idempotent, so a replayed event or a repeated simulation repeats
 * them harmlessly and answers the refund as it is. Null while the transfer is still pending.
 */
export async function applyRefundTransferStatus(
  deps: TransferDeps,
  meta: RequestMeta,
  payout: RefundTransferRecord,
): Promise<RefundRecord | null> {
  if (!payout.transferId) return null;
  const state = await deps.transfers.getTransfer(payout.transferId);
  if (state.status === "pending") return null;
  // A cancelled refund transfer moved no money: for the refund that is a failure.
  const code = state.status === "completed" ? null : (state.failureCode ?? state.status);
  const failure = code ? { code, reason: transferFailureReason(code) } : null;
  await settleRefundPayout(deps, meta, payout, state.status, failure);
  const refund = await deps.refunds.recordTransferStatus(meta, {
    refundId: payout.refundId,
    attempt: payout.attempt,
    transferId: payout.transferId,
    status: failure ? "failed" : "completed",
    ...(failure ? { failureCode: failure.code, failureReason: failure.reason } : {}),
  });
  deps.logger.info({ requestId: meta.requestId, refundId: payout.refundId, attempt: payout.attempt, status: refund.status }, "refund transfer status applied");
  return refund;
}
