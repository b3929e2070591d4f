import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { CheckoutSnapshot } from "./event-snapshots.ts";

/** The consumer's bank account was saved for the checkout (status `payment_method_saved`). Published by checkout. */
export const CheckoutPaymentMethodSavedEvent = defineEvent("checkout.payment_method_saved", "checkout", CheckoutSnapshot);
export type CheckoutPaymentMethodSavedEvent = z.infer<typeof CheckoutPaymentMethodSavedEvent>;
