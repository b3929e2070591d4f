import { cancelSubscriptionOp, requireService } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { cancelSubscription } from "../../domain/cancel-subscription.use-case.ts";
import type { CheckoutDeps } from "./deps.ts";

// Internal: payments calls it after checking that the consumer owns the subscription.
export const cancelSubscriptionHandler = (deps: CheckoutDeps) =>
  handle(cancelSubscriptionOp, (payload, ctx) => {
    requireService(ctx.principal);
    return cancelSubscription(deps, payload.checkout_id);
  });
