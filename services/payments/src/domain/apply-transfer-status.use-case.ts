import type { RefundPayoutSnapshot } from "@payrail/contracts";
import { applyRefundTransferStatus } from "./apply-refund-transfer-status.ts";
import type { RequestMeta } from "./ports/checkouts.port.ts";
import { followSubscriptionCharge } from "./follow-subscription-charge.ts";
import { settleTransaction } from "./settle-transaction.ts";
import type { TransactionDoc } from "./transaction.entity.ts";
import type { StatusDeps } from "./transfer.deps.ts";

/**
 * The one path by which a transfer's status changes, for provider webhooks and sandbox
 * simulations alike: the event only says "look at transfer X"; the status is re-read from the
 * provider. The record moves `pending` → final in one conditional write that also stores its
 * transaction.completed / .failed event, so replays and out-of-order events never move a final
 * status back, and the checkout (a subscriber) learns of it from the event. A transfer that is
 * not a transaction's may be a refund's payout: settled the same way (refund_payout.settled).
 * A subscription's charge then moves its schedule (renewed, past_due, unpaid or cancelled).
 */
export async function applyTransferStatus(
  deps: StatusDeps,
  meta: RequestMeta,
  event: { eventId: string; transferId: string },
): Promise<{ duplicate: boolean; transaction: TransactionDoc | null; payout?: RefundPayoutSnapshot }> {
  if (await deps.webhookEvents.seen(event.eventId)) return { duplicate: true, transaction: null };
  const transaction = await deps.transactions.findByTransferId(event.transferId);
  if (!transaction) {
    const refundTransfer = await deps.refundTransfers.findByTransferId(event.transferId);
    if (refundTransfer) {
      const payout = await applyRefundTransferStatus(deps, meta, refundTransfer);
      // Remembered only once settled: a failure on the way makes the provider redeliver.
      if (payout) await deps.webhookEvents.remember(event.eventId, deps.now().toISOString());
      return { duplicate: false, transaction: null, ...(payout ? { payout } : {}) };
    }
    deps.logger.info({ requestId: meta.requestId, eventId: event.eventId, transferId: event.transferId }, "status event for an unknown transfer ignored");
    return { duplicate: false, transaction: null };
  }
  const state = await deps.transfers.getTransfer(event.transferId);
  if (state.status === "pending") {
    // Nothing final yet (an event that ran ahead of the provider): a later delivery may act.
    return { duplicate: false, transaction };
  }
  const now = deps.now().toISOString();
  const error = state.status === "failed" ? (state.failureCode ?? "failed") : null;
  const current = await settleTransaction(deps, transaction, state.status, error, now);
  // Before the event id is remembered: a failure here makes the provider deliver it again.
  await followSubscriptionCharge(deps, current);
  await deps.webhookEvents.remember(event.eventId, now);
  deps.logger.info(
    { requestId: meta.requestId, transactionUuid: current._id, status: current.transaction_status, error: current.error },
    "transfer status applied",
  );
  return { duplicate: false, transaction: current };
}
