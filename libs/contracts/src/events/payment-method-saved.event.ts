import { z } from "zod";
import { defineEvent } from "./domain-event.ts";

/**
 * Internal (payments → checkout and identity, never shown to merchants): the consumer's bank
 * account for a checkout is saved at payments, so the checkout can move to
 * `payment_method_saved` and publish its own catalogue event, and identity learns that the
 * consumer (`user_id`, absent from events written before it was added) pays the merchant. The
 * aggregate is the payment method (`_id` = the checkout id).
 */
export const PaymentMethodSavedEvent = defineEvent(
  "payment_method.saved",
  "payment_method",
  z.looseObject({ checkout_id: z.string().regex(/^chk_[0-9a-f]{32}$/), user_id: z.string().min(1).max(64).optional() }),
);
export type PaymentMethodSavedEvent = z.infer<typeof PaymentMethodSavedEvent>;
