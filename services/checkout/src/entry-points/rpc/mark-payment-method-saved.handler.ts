import { markPaymentMethodSavedOp, requireService } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { markPaymentMethodSaved } from "../../domain/mark-payment-method-saved.use-case.ts";
import type { CheckoutDeps } from "./deps.ts";

// Internal: payments calls it once it has stored the consumer's account; no route exposes it.
export const markPaymentMethodSavedHandler = (deps: CheckoutDeps) =>
  handle(markPaymentMethodSavedOp, (payload, ctx) => {
    requireService(ctx.principal);
    return markPaymentMethodSaved(deps, payload.checkout_id);
  });
