import { requireMerchantWriter, updateSubscriptionOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { updateSubscription } from "../../domain/subscriptions/update-subscription.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const updateSubscriptionHandler = (deps: PaymentsDeps) => handle(updateSubscriptionOp, (payload, ctx) => updateSubscription(deps, { principal: requireMerchantWriter(ctx.principal), clientIp: ctx.clientIp }, payload));
