import type { RefundRecord } from "@payrail/contracts";
import { applyRefundTransferStatus } from "./apply-refund-transfer-status.ts";
import type { RequestMeta } from "./ports/checkouts.port.ts";
import type { TransactionDoc } from "./transaction.entity.ts";
import type { TransferDeps } from "./transfer.deps.ts";

/**
 * The one path by which a transfer's status changes, for provider webhooks and sandbox
 * simulations alike: the event only says "look at transfer X"; the status is re-read from the
 * provider. The record moves `pending` → final in one conditional write, so replays and
 * out-of-order events never move a final status back; the checkout follows the record, which
 * also repairs a checkout whose update was lost after the record moved. A transfer that is not
 * a transaction's may be a refund's: that one goes to the refunds service instead.
 */
export async function applyTransferStatus(
  deps: TransferDeps,
  meta: RequestMeta,
  event: { eventId: string; transferId: string },
): Promise<{ duplicate: boolean; transaction: TransactionDoc | null; refund?: RefundRecord }> {
  if (await deps.webhookEvents.seen(event.eventId)) return { duplicate: true, transaction: null };
  const transaction = await deps.transactions.findByTransferId(event.transferId);
  if (!transaction) {
    const refundTransfer = await deps.refundTransfers.findByTransferId(event.transferId);
    if (refundTransfer) {
      const refund = await applyRefundTransferStatus(deps, meta, refundTransfer);
      // Remembered only once refunds has it: a failure on the way makes the provider redeliver.
      if (refund) await deps.webhookEvents.remember(event.eventId, deps.now().toISOString());
      return { duplicate: false, transaction: null, ...(refund ? { refund } : {}) };
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
  // The moved record, or (already final: a replay or a late event) the record as it stands.
  const current =
    (await deps.transactions.settle(transaction._id, state.status, error, now)) ??
    (await deps.transactions.findByUuid(transaction._id)) ??
    transaction;
  if (current.transaction_status !== "pending") {
    await deps.checkouts.recordTransferStatus(meta, current.checkoutRef, current._id, current.transaction_status);
  }
  await deps.webhookEvents.remember(event.eventId, now);
  deps.logger.info(
    { requestId: meta.requestId, transactionUuid: current._id, status: current.transaction_status, error: current.error },
    "transfer status applied",
  );
  return { duplicate: false, transaction: current };
}
