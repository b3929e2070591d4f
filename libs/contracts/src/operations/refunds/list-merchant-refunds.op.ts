import { MerchantRefundListQuery, MerchantRefundListResponse } from "../../http/refunds.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Merchant refunds (docs/api-notes.md, Refunds): the calling merchant's refunds, newest first, optionally of
 * one status or one transaction; `starting_after` continues after a refund of the list
 * (another's or an unknown id is 400 `parameter_invalid`). Merchant api-key only.
 */
export const listMerchantRefundsOp = defineOperation("refunds.listMerchantRefunds", MerchantRefundListQuery, MerchantRefundListResponse);
