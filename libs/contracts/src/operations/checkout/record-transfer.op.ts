import { z } from "zod";
import { TransferSummary } from "../../http/checkout.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Internal (payments → checkout): the checkout's transfer started. Moves it from
 * `payment_method_saved` to `transfer_pending` with its `transfer` summary, and a
 * subscription's `subscription_status` to `active`. Repeating it with the same
 * transaction_uuid answers the same; another transfer on the same checkout is 409.
 */
export const recordTransferOp = defineOperation(
  "checkout.recordTransfer",
  z.object({ checkout_id: z.string().min(1).max(64), transfer: TransferSummary }),
  z.object({ status: z.string() }),
);
