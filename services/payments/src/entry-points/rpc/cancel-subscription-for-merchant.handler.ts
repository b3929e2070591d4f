import { cancelSubscriptionForMerchantOp, requireMerchantWriter } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { cancelSubscriptionForMerchant } from "../../domain/subscriptions/cancel-subscription-for-merchant.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const cancelSubscriptionForMerchantHandler = (deps: PaymentsDeps) =>
  handle(cancelSubscriptionForMerchantOp, (payload, ctx) => cancelSubscriptionForMerchant(deps, { principal: requireMerchantWriter(ctx.principal), clientIp: ctx.clientIp }, payload.checkout_id));
