import { markOverReturned } from "./mark-over-returned.ts";
import { moveRefund } from "./move-refund.ts";
import type { RequestMeta } from "./ports/payments.port.ts";
import { releasesHold } from "./refund-state.ts";
import type { RefundsDeps } from "./refunds.deps.ts";

export const TRANSACTION_RETURNED = "transaction_returned";

/**
 * The bank took a settled payment back (payments' transaction.returned, docs/api-notes.md, Returns and blocked bank accounts): refunds
 * of it that have not been paid out are stopped (`failed` with `failure_code:
 * "transaction_returned"`, a refund.failed event each), since paying them would give the
 * consumer the money twice. The transaction's ledger names every refund that still holds part
 * of it, so no scan is needed. Each move is one conditional write from the status read, so a
 * redelivered event, or a merchant deciding at the same moment, leaves one outcome. A refund
 * already `processing` is left to its payout (the provider has the transfer). One already
 * `completed` paid the consumer back a payment their bank returned too: it is marked
 * over-returned (`markOverReturned`). The return is recorded on the ledger before the refunds are
 * read, and a payout records `completed` before it reads the ledger, so of a return and a payout
 * completing at the same moment at least one sees the other.
 */
export async function stopReturnedRefunds(deps: RefundsDeps, meta: RequestMeta, transactionUuid: string, failureReason: string): Promise<number> {
  await deps.ledgers.markReturned(transactionUuid, deps.now().toISOString());
  const ledger = await deps.ledgers.find(transactionUuid);
  if (!ledger) return 0;
  const refunds = await deps.refunds.findMany(Object.keys(ledger.holds));
  let stopped = 0;
  for (const refund of refunds) {
    if (refund.status === "completed") await markOverReturned(deps, meta, refund);
    if (refund.status !== "pending" && refund.status !== "approved") continue;
    const at = deps.now().toISOString();
    const moved = await moveRefund(deps, refund, "failed", { failureCode: TRANSACTION_RETURNED, failureReason }, at);
    if (!moved) continue;
    stopped++;
    if (releasesHold(moved.status)) await deps.ledgers.release(moved.transactionUuid, moved._id, moved.attempt, moved.amountCents);
    deps.logger.info({ requestId: meta.requestId, refundId: moved._id, transactionUuid }, "refund stopped: its payment was returned");
  }
  return stopped;
}
