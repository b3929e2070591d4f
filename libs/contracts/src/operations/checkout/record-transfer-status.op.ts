import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Internal (payments → checkout): the provider reported the transfer's final status. Moves a
 * `transfer_pending` checkout to `paid` (completed) or `failed` (failed, cancelled), once:
 * a final status never moves back, so replays and out-of-order reports change nothing.
 */
export const recordTransferStatusOp = defineOperation(
  "checkout.recordTransferStatus",
  z.object({
    checkout_id: z.string().min(1).max(64),
    transaction_uuid: z.string().min(1).max(64),
    status: z.enum(["completed", "failed", "cancelled"]),
  }),
  z.object({ status: z.string(), changed: z.boolean() }),
);
