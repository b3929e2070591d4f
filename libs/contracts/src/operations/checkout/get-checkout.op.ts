import { z } from "zod";
import { CheckoutIdParam, CheckoutView } from "../../http/checkout.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Get Checkout (spec 2): the calling merchant's checkout, else checkout_not_found. */
export const getCheckoutOp = defineOperation("checkout.getCheckout", CheckoutIdParam, CheckoutView);
export type GetCheckoutResult = z.infer<typeof CheckoutView>;
