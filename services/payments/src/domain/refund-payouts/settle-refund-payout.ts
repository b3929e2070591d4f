import type { RefundPayoutSnapshot } from "@payrail/contracts";
import { refundPayoutSettledEvent, type PaymentEventsDeps } from "../shared/payment-events.ts";
import type { RefundTransferRecord } from "./refund-transfer.entity.ts";
import type { TransactionDoc } from "../transactions/transaction.entity.ts";
import type { StatusDeps } from "../transfers/transfer.deps.ts";

/** Writes that lose to a concurrent one (another refund reserving cents) read again; a few at most. */
const TRIES = 5;

/**
 * A refund payout is final: the payout record moves (once), then the refunded transaction stops
 * counting a failed payout's cents or adds a completed one's to its amount refunded, in one
 * conditional write (on the payout's state and the record's version) that also stores the
 * refund_payout.settled event the refunds and checkout services follow. A repeat (a replayed
 * webhook, a retry after a crash half-way) finds the payout counted and only answers; the event
 * went out with the write that counted it.
 */
export async function settleRefundPayout(
  deps: Pick<StatusDeps, "refundTransfers" | "transactions" | "now"> & PaymentEventsDeps,
  payout: RefundTransferRecord,
  status: "completed" | "failed" | "cancelled",
  failure: { code: string; reason: string } | null,
): Promise<RefundPayoutSnapshot> {
  const at = deps.now().toISOString();
  await deps.refundTransfers.settle(payout._id, status, failure, at);
  const outcome = status === "completed" ? "completed" : "failed";
  const snapshot = (t: TransactionDoc): RefundPayoutSnapshot => ({
    refund_id: payout.refundId,
    attempt: payout.attempt,
    transfer_id: payout.transferId,
    status: outcome,
    ...(failure ? { failure_code: failure.code.slice(0, 64), failure_reason: failure.reason.slice(0, 500) } : {}),
    transaction_uuid: t._id,
    checkout_id: t.checkoutRef,
    amount_cents: payout.amountCents,
    amount_refunded_cents: t.amountRefundedCents ?? 0,
    fully_refunded: (t.amountRefundedCents ?? 0) >= t.amountCents,
  });
  for (let i = 0; i < TRIES; i++) {
    const t = await deps.transactions.findByUuid(payout.transactionUuid);
    if (!t) throw new Error(`refund payout ${payout._id} names transaction ${payout.transactionUuid}, which is gone`);
    if (t.refundPayouts?.[payout._id] !== "live") return snapshot(t);
    const after: TransactionDoc = {
      ...t,
      refundPayouts: { ...t.refundPayouts, [payout._id]: outcome },
      refundReservedCents: (t.refundReservedCents ?? 0) - (outcome === "failed" ? payout.amountCents : 0),
      amountRefundedCents: (t.amountRefundedCents ?? 0) + (outcome === "completed" ? payout.amountCents : 0),
      updated_at: at,
      version: (t.version ?? 0) + 1,
    };
    const event = refundPayoutSettledEvent(after, snapshot(after), deps.livemode);
    const moved = await deps.transactions.settlePayout(t._id, t.version, { id: payout._id, cents: payout.amountCents, outcome }, at, event);
    if (moved) {
      deps.events.written();
      return snapshot(moved);
    }
  }
  throw new Error(`transaction ${payout.transactionUuid} kept changing; refund payout ${payout._id} is settled on the next event`);
}
