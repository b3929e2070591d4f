import { ConsumerRefundRequestBody, RefundAnswer } from "../../http/refunds.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Consumer Refund Request (spec 11): the calling consumer asks for a refund of one of their
 * own transactions (`pending` or `completed`), for its full amount. At most one live refund
 * per transaction (409 `refund_exists`).
 */
export const requestRefundOp = defineOperation("refunds.requestRefund", ConsumerRefundRequestBody, RefundAnswer);
