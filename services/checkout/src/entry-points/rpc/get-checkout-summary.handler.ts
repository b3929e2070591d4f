import { getCheckoutSummaryOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getCheckoutSummary } from "../../domain/get-checkout-summary.use-case.ts";
import type { CheckoutDeps } from "./deps.ts";

export const getCheckoutSummaryHandler = (deps: CheckoutDeps) =>
  handle(getCheckoutSummaryOp, (payload, ctx) => getCheckoutSummary(deps, ctx.principal, payload.checkout_id));
