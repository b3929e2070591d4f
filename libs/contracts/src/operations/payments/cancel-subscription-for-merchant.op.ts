import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * A merchant cancels one of its subscriptions, named by its checkout: no further renewal, and
 * its mandate revoked (docs/api-notes.md, Mandates), as when the consumer cancels. Cancelling again answers the
 * same. Another merchant's checkout, or one never paid, is 404 `checkout_not_found`; a one-off
 * payment is 409 `not_a_subscription`. A dashboard viewer gets 403.
 */
export const cancelSubscriptionForMerchantOp = defineOperation(
  "payments.cancelSubscriptionForMerchant",
  z.object({ checkout_id: z.string().min(1).max(64) }),
  z.object({ checkout_id: z.string(), subscription_status: z.literal("cancelled") }),
);
