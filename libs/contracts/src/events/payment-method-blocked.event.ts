import { z } from "zod";
import { defineEvent } from "./domain-event.ts";

/**
 * A checkout's bank account is blocked (docs/api-notes.md, Returns and blocked bank accounts): a debit from it came back with R02, R03,
 * R04, R05, R07, R10 or R29, so no merchant debits it again. Sent for the checkout whose debit
 * came back and for every subscription on the same account (which becomes `unpaid`). The
 * aggregate is the checkout's payment method (`_id` = the checkout id). Published by payments.
 */
export const PaymentMethodBlockedSnapshot = z.looseObject({
  object: z.literal("payment_method"),
  checkout_id: z.string().regex(/^chk_[0-9a-f]{32}$/),
  blocked: z.literal(true),
  failure_code: z.string().min(1).max(16),
  blocked_at: z.iso.datetime({ precision: 3 }),
});
export const PaymentMethodBlockedEvent = defineEvent("payment_method.blocked", "payment_method", PaymentMethodBlockedSnapshot);
export type PaymentMethodBlockedEvent = z.infer<typeof PaymentMethodBlockedEvent>;
