import { getHostedCheckoutOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getHostedCheckout } from "../../domain/get-hosted-checkout.use-case.ts";
import type { CheckoutDeps } from "./deps.ts";

// Any caller: the link token is the proof (the hosted page asks before the consumer signs in).
export const getHostedCheckoutHandler = (deps: CheckoutDeps) =>
  handle(getHostedCheckoutOp, (payload, ctx) => getHostedCheckout(deps, payload.checkout_id, payload.link_token, ctx.principal));
