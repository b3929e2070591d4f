import { MerchantRefundDecisionBody, RefundAnswer } from "../../http/refunds.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Merchant Status Refund Request (spec 13): the refund's merchant (its api-key, or an
 * operator's auth token) approves or rejects a `pending` refund. The same decision again
 * answers the same; the other one is 409 `invalid_refund_transition`.
 */
export const decideRefundOp = defineOperation("refunds.decideRefund", MerchantRefundDecisionBody, RefundAnswer);
