import { getSubscriptionMandateOp, requireUser } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getSubscriptionMandate } from "../../domain/mandates/get-subscription-mandate.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const getSubscriptionMandateHandler = (deps: PaymentsDeps) =>
  handle(getSubscriptionMandateOp, (payload, ctx) => getSubscriptionMandate(deps, ctx, requireUser(ctx.principal), payload.subscription_transaction_uuid));
