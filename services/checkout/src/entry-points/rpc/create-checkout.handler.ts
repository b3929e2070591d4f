import { createCheckoutOp, requireMerchantWriter } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { createCheckout } from "../../domain/create-checkout.use-case.ts";
import type { CheckoutDeps } from "./deps.ts";

// Runs once by itself: the call id rides on the insert its unique index guards (see createCheckout).
export const createCheckoutHandler = (deps: CheckoutDeps) =>
  handle(createCheckoutOp, (payload, ctx) => createCheckout(deps, { principal: requireMerchantWriter(ctx.principal), clientIp: ctx.clientIp }, payload.checkout, ctx.callId), { runsOnceItself: true });
