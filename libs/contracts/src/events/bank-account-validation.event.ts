import { z } from "zod";
import { defineEvent } from "./domain-event.ts";

/**
 * A checkout's bank account as account validation sees it (docs/api-notes.md, Account
 * validation): the aggregate is the checkout's payment method (`_id` = the checkout id), its
 * version counts the validation's changes. Published by payments.
 */
export const BankAccountSnapshot = z.looseObject({
  object: z.literal("bank_account"),
  checkout_id: z.string().regex(/^chk_[0-9a-f]{32}$/),
  status: z.enum(["validated", "validation_required", "micro_deposits_sent", "locked"]),
  /** True: the account a subscription's consumer chose to draw on next (not debited until validated); absent on events before it. */
  pending_change: z.boolean().optional(),
  validation: z.object({ method: z.enum(["bank_data_provider", "micro_deposits"]), validated_at: z.string() }).nullable(),
  bank_account: z.object({ institution: z.string().nullable(), mask: z.string().nullable() }),
});

/** The linked account could not be validated by the bank-data provider: no debit until micro-deposits are verified. */
export const BankAccountValidationRequiredEvent = defineEvent("bank_account.validation_required", "bank_account", BankAccountSnapshot);
export type BankAccountValidationRequiredEvent = z.infer<typeof BankAccountValidationRequiredEvent>;

/** The consumer entered the two micro-deposit amounts: the account may be debited. */
export const BankAccountValidatedEvent = defineEvent("bank_account.validated", "bank_account", BankAccountSnapshot);
export type BankAccountValidatedEvent = z.infer<typeof BankAccountValidatedEvent>;

/**
 * Internal (payments → notices, never shown to merchants): two micro-deposits were sent to the
 * checkout's account; the consumer gets a notice to enter them. `amounts` only in the sandbox,
 * whose deposits reach no real statement: live notices never carry them.
 */
export const MicroDepositsSentEvent = defineEvent(
  "bank_account.micro_deposits_sent",
  "bank_account",
  z.looseObject({
    checkout_id: z.string().regex(/^chk_[0-9a-f]{32}$/),
    user_id: z.string().min(1).max(64),
    expires_at: z.string(),
    amounts: z.array(z.string()).length(2).optional(),
    /** True: sent to a subscription's pending change of account, which the consumer confirms in the portal. */
    pending_change: z.boolean().optional(),
  }),
);
export type MicroDepositsSentEvent = z.infer<typeof MicroDepositsSentEvent>;
