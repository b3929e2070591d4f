import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Internal (notices, on its own account): the checkout's consumer email (`customer.email`, null
 * when the merchant sent none) and what a notice says of the purchase.
 */
export const getNoticeRecipientOp = defineOperation(
  "checkout.getNoticeRecipient",
  z.object({ checkout_id: z.string().min(1).max(64) }),
  z.object({
    checkout_id: z.string(),
    merchant_id: z.string(),
    email: z.string().nullable(),
    amount_cents: z.number().int(),
    currency: z.string(),
    is_subscription: z.boolean(),
    plan_type: z.string().nullable(),
    /** A subscription's first charge (`sc-…`): the portal names the subscription by it; null before it or for a one-off. */
    subscription_uuid: z.string().nullable(),
  }),
  { reads: true },
);
