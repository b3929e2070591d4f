import { ConsumerRefundListQuery, ConsumerRefundListResponse } from "../../http/refunds.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Consumer Refund List (spec 12): the calling consumer's refund records, newest first. */
export const listRefundsOp = defineOperation("refunds.listRefunds", ConsumerRefundListQuery, ConsumerRefundListResponse);
