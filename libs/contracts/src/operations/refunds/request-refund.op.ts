import { ConsumerRefundRequestBody, RefundAnswer } from "../../http/refunds.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Consumer Refund Request (spec 11, docs/api-notes.md, Refunds): the calling consumer asks for
 * a refund of one of their own transactions (`pending` or `completed`), for `amount` or, without
 * one, whatever is still refundable. The refunds of a transaction that are not rejected or
 * failed never add up to more than its amount: nothing left is 409 `refund_exists`, an amount
 * above what is left 409 `amount_exceeds_refundable`.
 */
export const requestRefundOp = defineOperation("refunds.requestRefund", ConsumerRefundRequestBody, RefundAnswer);
