import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Internal (payments → checkout): the consumer cancelled the subscription. Its
 * `subscription_status` becomes `cancelled`; repeating answers the same.
 */
export const cancelSubscriptionOp = defineOperation(
  "checkout.cancelSubscription",
  z.object({ checkout_id: z.string().min(1).max(64) }),
  z.object({ subscription_status: z.literal("cancelled") }),
);
