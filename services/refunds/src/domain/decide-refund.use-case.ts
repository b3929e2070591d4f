import { AppError, refuseViewer } from "@payrail/contracts";
import { auditEvents } from "@payrail/runtime";
import { moveRefund } from "./move-refund.ts";
import type { RequestMeta } from "./ports/payments.port.ts";
import { refundForMerchant } from "./refund-for-merchant.ts";
import { DECISION_MESSAGES, decisionOutcome, releasesHold, type Decision } from "./refund-state.ts";
import { toRefundRecord } from "./refund.entity.ts";
import type { RefundsDeps } from "./refunds.deps.ts";

/**
 * Merchant Status Refund Request: approve or reject a pending refund, in one conditional write
 * from `pending`, so of racing decisions exactly one is made. A call that finds the decision
 * made answers as the winner did when it is the same decision, else 409
 * `invalid_refund_transition`. A rejection gives the refund's amount back to the transaction.
 */
export async function decideRefund(deps: RefundsDeps, meta: RequestMeta, input: { id: string; status: Decision }) {
  refuseViewer(meta.principal);
  let refund = await refundForMerchant(deps, meta, input.id);
  if (decisionOutcome(refund.status, input.status) === "move") {
    const at = deps.now().toISOString();
    // A consumer token got this far only as one of the merchant's operators (refundForMerchant).
    const audit = auditEvents(meta, {
      service: "refunds",
      merchantId: refund.merchantId,
      action: input.status === "approved" ? "refund.approved" : "refund.rejected",
      object: { type: "refund", id: refund._id },
      at,
      livemode: deps.livemode,
      userIsOperator: true,
    });
    const moved = await moveRefund(deps, refund, input.status, {}, at, audit);
    if (moved) deps.logger.info({ requestId: meta.requestId, refundId: refund._id, status: moved.status }, "refund decided");
    refund = moved ?? (await deps.refunds.find(refund._id)) ?? refund;
  }
  if (decisionOutcome(refund.status, input.status) !== "same") {
    throw new AppError("invalid_refund_transition", `refund ${refund._id} is ${refund.status}; it cannot be ${input.status}`, { param: "status" });
  }
  // Also on a repeat: heals a release lost to a crash right after the move.
  if (releasesHold(refund.status)) await deps.ledgers.release(refund.transactionUuid, refund._id, refund.attempt, refund.amountCents);
  return { message: DECISION_MESSAGES[input.status], refund: toRefundRecord(refund) };
}
