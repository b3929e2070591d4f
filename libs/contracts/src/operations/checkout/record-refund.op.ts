import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Internal (payments → checkout): refunds of one of the checkout's transactions have sent
 * `amount_refunded_cents` back in all. The checkout keeps the largest figure per transaction
 * (reports may come twice or out of order) and shows their sum as `amount_refunded`; when the
 * transaction its `transfer` names is `fully_refunded`, a `paid` checkout becomes `refunded`.
 */
export const recordRefundOp = defineOperation(
  "checkout.recordRefund",
  z.object({
    checkout_id: z.string().min(1).max(64),
    transaction_uuid: z.string().min(1).max(64),
    amount_refunded_cents: z.number().int().min(0),
    fully_refunded: z.boolean(),
  }),
  z.object({ status: z.string() }),
);
