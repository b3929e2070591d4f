import { cancelSubscriptionByTransactionOp, requireUser } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { cancelSubscription } from "../../domain/subscriptions/cancel-subscription.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const cancelSubscriptionHandler = (deps: PaymentsDeps) =>
  handle(cancelSubscriptionByTransactionOp, (payload, ctx) =>
    cancelSubscription(deps, ctx, requireUser(ctx.principal), payload.subscription_transaction_uuid),
  );
