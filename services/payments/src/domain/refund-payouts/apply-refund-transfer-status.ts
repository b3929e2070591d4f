import type { RefundPayoutSnapshot } from "@payrail/contracts";
import { transferFailureReason } from "../transfers/failure-reason.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { RefundTransferRecord } from "./refund-transfer.entity.ts";
import { settleRefundPayout } from "./settle-refund-payout.ts";
import type { StatusDeps } from "../transfers/transfer.deps.ts";

/**
 * A refund payout's status, re-read from the provider (the event only says "look at it").
 * Once final it is settled here (the payout, the transaction's sums, and the
 * refund_payout.settled event that moves the refund and the checkout); a returned payout
 * carries the ACH code and its reason. Every step is idempotent, so a replayed event or a
 * repeated simulation repeats them harmlessly and answers the outcome. Null while pending.
 */
export async function applyRefundTransferStatus(
  deps: StatusDeps,
  meta: RequestMeta,
  payout: RefundTransferRecord,
): Promise<RefundPayoutSnapshot | null> {
  if (!payout.transferId) return null;
  // A payout's first final word stands (a credit returned after it settled is not modelled):
  // a settled payout answers as recorded, whatever the provider says now.
  const state = payout.status === "pending" ? await deps.transfers.getTransfer(payout.transferId) : { status: payout.status, failureCode: payout.failureCode ?? undefined };
  if (state.status === "pending") return null;
  // A cancelled refund transfer moved no money: for the refund that is a failure.
  const code = state.status === "completed" ? null : (state.failureCode ?? state.status);
  const failure = code ? { code, reason: transferFailureReason(code) } : null;
  const outcome = await settleRefundPayout(deps, payout, state.status, failure);
  deps.logger.info({ requestId: meta.requestId, refundId: payout.refundId, attempt: payout.attempt, status: outcome.status }, "refund transfer status applied");
  return outcome;
}
