import { z } from "zod";
import { MandateAcceptance, MandateText } from "./mandate.schema.ts";
import { BankAccountValidationState, MicroDepositAmounts } from "./micro-deposits.schema.ts";

/*
 * The consumer's re-link of the bank account a subscription draws on (docs/api-notes.md, Returns and blocked bank accounts): a bank-linking token with the authorization text, then the exchange that replaces the
 * account under a new recurring mandate.
 */

const SubscriptionTransactionUuid = z
  .string()
  .min(1)
  .max(64)
  .describe("`transaction_uuid` of any record of the consumer's subscription (as in Subscription Cancel)");

export const RelinkTokenBody = z.object({ subscription_transaction_uuid: SubscriptionTransactionUuid });

export const RelinkTokenResponse = z.object({
  link_token: z.string().describe("Bank-linking token for the bank-data provider's account picker"),
  expiration: z.string().describe("When the bank-linking token expires (ISO 8601 UTC)"),
  mandate: MandateText.describe("The recurring authorization to show before the consumer confirms the new account"),
});

export const RelinkBankAccountBody = z.object({
  subscription_transaction_uuid: SubscriptionTransactionUuid,
  public_token: z.string().min(1).max(512),
  bankdata_account_id: z.string().min(1).max(255),
  mandate: MandateAcceptance,
});

export const RelinkBankAccountResponse = z.object({
  message: z
    .enum(["Bank account changed", "Bank account change pending"])
    .describe(
      "`Bank account changed`: the subscription draws on the new account from now; `Bank account change pending`: the bank could not validate the account, micro-deposits were sent to it and the subscription keeps its current account until the consumer enters them (see `validation`)",
    ),
  mandate_id: z
    .string()
    .describe("The new recurring mandate (`mdt_…`); the previous one is revoked. While the change is pending, the id it is recorded under once the account is validated"),
  status: z.enum(["active", "past_due", "unpaid"]).describe("The subscription's status after the change (`unpaid` becomes `active`; a pending change leaves it as it is)"),
  validation: BankAccountValidationState.optional().describe("Only for a pending change: where the new account's validation stands (`pending_change: true`)"),
});

/** The portal's micro-deposits to a subscription's pending account: the subscription named as for a re-link. */
export const RelinkMicroDepositsBody = z.object({ subscription_transaction_uuid: SubscriptionTransactionUuid });
export const VerifyRelinkMicroDepositsBody = z.object({ subscription_transaction_uuid: SubscriptionTransactionUuid, amounts: MicroDepositAmounts });
