import { z } from "zod";

/*
 * Account validation (docs/api-notes.md, Account validation): NACHA has a WEB debit's account
 * validated before its first use. The bank-data provider validates the accounts it returned
 * account and routing numbers for; any other account is validated by micro-deposits.
 */

export const ValidationMethod = z.enum(["bank_data_provider", "micro_deposits"]);
export type ValidationMethod = z.infer<typeof ValidationMethod>;

/** How and when a bank account was validated. */
export const AccountValidation = z.object({
  method: ValidationMethod.describe("`bank_data_provider` (the bank-data provider returned the account and routing numbers) or `micro_deposits` (the consumer entered the two amounts)"),
  validated_at: z.string().describe("When the account was validated (ISO 8601 UTC)"),
});
export type AccountValidation = z.infer<typeof AccountValidation>;

/** A micro-deposit amount as the consumer reads it on their statement: under $1, as a decimal string. */
const MICRO_AMOUNT = /^0\.\d{1,2}$/;

function isAmountPair(value: unknown): value is [string, string] {
  return Array.isArray(value) && value.length === 2 && value.every((a) => typeof a === "string" && MICRO_AMOUNT.test(a) && Number(a) > 0);
}

/**
 * Exactly two decimal strings above 0 and under 1.00. Anything else is one 400 naming `amounts`
 * (not `amounts.0`): the consumer re-enters the pair, whichever half was wrong.
 */
export const MicroDepositAmounts = z
  .unknown()
  .refine(isAmountPair, { message: 'must be the two amounts as decimal strings under 1.00, e.g. ["0.07", "0.15"]', params: { code: "parameter_invalid" } })
  .pipe(z.tuple([z.string(), z.string()]))
  .meta({
    type: "array",
    items: { type: "string", pattern: MICRO_AMOUNT.source },
    minItems: 2,
    maxItems: 2,
    description: 'The two amounts deposited, in any order, as decimal strings under 1.00 (e.g. `["0.07", "0.15"]`)',
  });

const CheckoutIdField = z
  .string()
  .min(1)
  .max(64)
  .optional()
  .describe("The checkout whose bank account this is; optional: the link-token names its checkout (a different one is 403 `link_token_mismatch`)");

/** Start Micro-deposits takes no body, or this one. */
export const StartMicroDepositsBody = z.object({ checkout_id: CheckoutIdField });
export const VerifyMicroDepositsBody = z.object({ checkout_id: CheckoutIdField, amounts: MicroDepositAmounts });

export const BankAccountValidationStatus = z.enum(["validated", "validation_required", "micro_deposits_sent", "locked"]);

/** Where a checkout's bank account stands: validated, or what the consumer does next. */
export const BankAccountValidationState = z.object({
  object: z.literal("bank_account_validation"),
  checkout_id: z.string().describe("The checkout (`chk_…`) the bank account is linked to"),
  status: BankAccountValidationStatus.describe(
    "`validated`; `validation_required` (start micro-deposits); `micro_deposits_sent` (enter the two amounts); `locked` (three wrong tries: link another account)",
  ),
  pending_change: z
    .boolean()
    .describe(
      "True for the account a subscription's consumer chose to draw on next: the subscription keeps drawing on its current account until this one is validated; false for the account the checkout draws on",
    ),
  validation: AccountValidation.nullable().describe("How and when the account was validated; null until it is"),
  micro_deposits: z
    .object({
      sent_at: z.string().describe("When the two deposits were sent (ISO 8601 UTC)"),
      expires_at: z.string().describe("When the amounts stop being accepted: 10 days after they were sent (ISO 8601 UTC)"),
      tries_left: z.number().int().describe("Wrong pairs still allowed before the account is locked (3 at first)"),
    })
    .nullable()
    .describe("The micro-deposits sent to the account, or null when none were"),
});
export type BankAccountValidationState = z.infer<typeof BankAccountValidationState>;
