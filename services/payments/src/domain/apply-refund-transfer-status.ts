import type { RefundRecord } from "@payrail/contracts";
import type { RequestMeta } from "./ports/checkouts.port.ts";
import type { RefundTransferRecord } from "./refund-transfer.entity.ts";
import type { TransferDeps } from "./transfer.deps.ts";

/**
 * A refund transfer's status, re-read from the provider (the event only says "look at it").
 * Once final it is recorded here (one conditional write), a failed transfer frees the
 * transaction for another refund, and refunds is told, which moves the refund record. Every
 * step is idempotent, so a replayed event or a repeated simulation repeats them harmlessly and
 * answers the refund as it is. Null while the transfer is still pending.
 */
export async function applyRefundTransferStatus(
  deps: TransferDeps,
  meta: RequestMeta,
  record: RefundTransferRecord,
): Promise<RefundRecord | null> {
  if (!record.transferId) return null;
  const state = await deps.transfers.getTransfer(record.transferId);
  if (state.status === "pending") return null;
  // A cancelled refund transfer moved no money: for the refund that is a failure.
  const status = state.status === "completed" ? "completed" : "failed";
  const failureCode = status === "failed" ? (state.failureCode ?? state.status) : undefined;
  await deps.refundTransfers.settle(record._id, state.status, failureCode ?? null, deps.now().toISOString());
  if (status === "failed") await deps.transactions.releaseRefundLock(record.transactionUuid, record._id);
  const refund = await deps.refunds.recordTransferStatus(meta, {
    refundId: record._id,
    transferId: record.transferId,
    status,
    ...(failureCode ? { failureCode } : {}),
  });
  deps.logger.info({ requestId: meta.requestId, refundId: record._id, status: refund.status }, "refund transfer status applied");
  return refund;
}
