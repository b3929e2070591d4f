import type { RequestMeta } from "./ports/checkouts.port.ts";
import type { RefundTransferRecord } from "./refund-transfer.entity.ts";
import type { TransferDeps } from "./transfer.deps.ts";

/**
 * A refund payout is final: the payout record moves (once), the transaction stops counting a
 * failed payout's cents or adds a completed one's to its amount refunded (once, by the
 * payout's own entry on the transaction), and after a completion the checkout learns the
 * transaction's new figure. Each write is idempotent, so a repeat (a replayed webhook, a
 * retried call after a crash half-way) repeats them harmlessly and finishes what was lost.
 */
export async function settleRefundPayout(
  deps: Pick<TransferDeps, "refundTransfers" | "transactions" | "checkouts" | "now">,
  meta: RequestMeta,
  payout: RefundTransferRecord,
  status: "completed" | "failed" | "cancelled",
  failure: { code: string; reason: string } | null,
): Promise<void> {
  const at = deps.now().toISOString();
  await deps.refundTransfers.settle(payout._id, status, failure, at);
  const outcome = status === "completed" ? "completed" : "failed";
  const counted = await deps.transactions.settlePayout(payout.transactionUuid, payout._id, payout.amountCents, outcome, at);
  if (outcome === "failed") return;
  const transaction = counted ?? (await deps.transactions.findByUuid(payout.transactionUuid));
  if (!transaction) return;
  const refunded = transaction.amountRefundedCents ?? 0;
  await deps.checkouts.recordRefund(meta, transaction.checkoutRef, {
    transactionUuid: transaction._id,
    amountRefundedCents: refunded,
    fullyRefunded: refunded >= transaction.amountCents,
  });
}
