import { AppError } from "@payrail/contracts";
import { markOverReturned } from "./mark-over-returned.ts";
import { moveRefund } from "./move-refund.ts";
import type { RequestMeta } from "./ports/payments.port.ts";
import { releasesHold } from "./refund-state.ts";
import type { RefundDoc } from "./refund.entity.ts";
import type { RefundsDeps } from "./refunds.deps.ts";

/** A payout's end, as payments reports it (or as its answer to a start said: refused). */
export interface PayoutEnd {
  refundId: string;
  attempt: number;
  /** The payout's transfer; null when the provider refused to create one. */
  transferId: string | null;
  status: "completed" | "failed";
  failureCode?: string | undefined;
  failureReason?: string | undefined;
}

/**
 * Payout `attempt` of the refund ended: `processing` on that attempt → `completed` | `failed`
 * in one conditional write (which also records the transfer id, should the initiating call
 * have died before it could). A final refund, or one on another attempt, never moves; a
 * replay answers it as it is. A failed refund gives its amount back to the transaction (also
 * on a repeat: that repairs a release lost to a crash right after the move). A completed one
 * whose payment the bank returned meanwhile is marked over-returned (also on a repeat, for the
 * same reason).
 */
export async function settleRefund(deps: RefundsDeps, meta: RequestMeta, end: PayoutEnd): Promise<RefundDoc> {
  const failed = end.status === "failed";
  const found = await deps.refunds.find(end.refundId);
  if (!found) throw new AppError("refund_not_found", `no refund ${end.refundId}`, { param: "refund_id" });
  // Read first: the move's event is built from the record it changes (see moveRefund).
  const moves = found.status === "processing" && found.attempt === end.attempt;
  const moved = moves
    ? await moveRefund(
        deps,
        found,
        end.status,
        { refundTransactionId: end.transferId, failureCode: failed ? (end.failureCode ?? null) : null, failureReason: failed ? (end.failureReason ?? null) : null },
        deps.now().toISOString(),
      )
    : null;
  const refund = moved ?? (moves ? ((await deps.refunds.find(end.refundId)) ?? found) : found);
  if (moved) {
    deps.logger.info({ requestId: meta.requestId, refundId: refund._id, attempt: end.attempt, status: refund.status, failureCode: refund.failureCode }, "refund payout settled");
  } else if (refund.attempt === end.attempt && refund.status !== "completed" && refund.status !== "failed") {
    // Only a processing refund has a payout: this report does not fit the record. Say so, change nothing.
    deps.logger.warn({ requestId: meta.requestId, refundId: refund._id, status: refund.status }, "refund payout status for a refund not processing ignored");
  }
  if (releasesHold(refund.status)) await deps.ledgers.release(refund.transactionUuid, refund._id, refund.attempt, refund.amountCents);
  if (refund.status === "completed" && !refund.overReturnedAt && (await deps.ledgers.find(refund.transactionUuid))?.returnedAt) {
    return (await markOverReturned(deps, meta, refund)) ?? refund;
  }
  return refund;
}
