import { z } from "zod";
import { RefundRecord } from "../../http/refunds.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Internal (payments → refunds): payout `attempt` of the refund reached a final status at the
 * provider. Moves a `processing` refund on that attempt to `completed` or `failed`, once (a
 * final status never moves; a replay, or a report about an earlier attempt, answers the record
 * as it is). Service principals only.
 */
export const recordRefundTransferStatusOp = defineOperation(
  "refunds.recordRefundTransferStatus",
  z.object({
    refund_id: z.string().min(1).max(64),
    attempt: z.number().int().positive(),
    transfer_id: z.string().min(1).max(255),
    status: z.enum(["completed", "failed"]),
    failure_code: z.string().max(64).optional(),
    failure_reason: z.string().max(500).optional(),
  }),
  RefundRecord,
);
