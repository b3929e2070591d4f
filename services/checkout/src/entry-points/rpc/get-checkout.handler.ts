import { getCheckoutOp, requireMerchant } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getCheckout } from "../../domain/get-checkout.use-case.ts";
import type { CheckoutDeps } from "./deps.ts";

export const getCheckoutHandler = (deps: CheckoutDeps) =>
  handle(getCheckoutOp, (payload, ctx) => getCheckout(deps, requireMerchant(ctx.principal), payload.checkout_id));
