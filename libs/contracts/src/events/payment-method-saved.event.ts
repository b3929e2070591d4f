import { z } from "zod";
import { defineEvent } from "./domain-event.ts";

/**
 * Internal (payments → checkout, never shown to merchants): the consumer's bank account for a
 * checkout is saved at payments, so the checkout can move to `payment_method_saved` and publish
 * its own catalogue event. The aggregate is the payment method (`_id` = the checkout id).
 */
export const PaymentMethodSavedEvent = defineEvent(
  "payment_method.saved",
  "payment_method",
  z.looseObject({ checkout_id: z.string().regex(/^chk_[0-9a-f]{32}$/) }),
);
export type PaymentMethodSavedEvent = z.infer<typeof PaymentMethodSavedEvent>;
