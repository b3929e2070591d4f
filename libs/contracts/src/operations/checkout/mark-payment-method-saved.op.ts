import { z } from "zod";
import { CheckoutStatus } from "../../http/checkout.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Moves a checkout to `payment_method_saved` once payments has stored the consumer's bank
 * account. Allowed from `open` and `payment_method_saved` (a re-link) in one conditional write;
 * any later state is 409 `checkout_closed`. Internal: only a service principal (payments) may call.
 */
export const markPaymentMethodSavedOp = defineOperation(
  "checkout.markPaymentMethodSaved",
  z.object({ checkout_id: z.string().min(1).max(64) }),
  z.object({ id: z.string(), status: CheckoutStatus }),
);
