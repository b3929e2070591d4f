import { RefundIdParam, RefundRecord } from "../../http/refunds.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** One refund of the calling merchant (another merchant's is 404 `refund_not_found`). Merchant api-key only. */
export const getMerchantRefundOp = defineOperation("refunds.getMerchantRefund", RefundIdParam, RefundRecord);
