import { z } from "zod";
import { RefundRecord } from "../../http/refunds.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Internal (payments → refunds): the refund's transfer reached a final status at the
 * provider. Moves a `processing` refund to `completed` or `failed`, once (a final status never
 * moves; a replay answers the record as it is). Service principals only.
 */
export const recordRefundTransferStatusOp = defineOperation(
  "refunds.recordRefundTransferStatus",
  z.object({
    refund_id: z.string().min(1).max(64),
    transfer_id: z.string().min(1).max(255),
    status: z.enum(["completed", "failed"]),
    failure_code: z.string().max(64).optional(),
  }),
  RefundRecord,
);
