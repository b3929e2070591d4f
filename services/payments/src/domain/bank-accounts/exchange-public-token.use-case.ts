import { AppError, type UserPrincipal } from "@payrail/contracts";
import { nowIso, type Logger } from "@payrail/runtime";
import { claimCheckout } from "./claim-checkout.ts";
import type { AccountValidationRecord } from "./account-validation.ts";
import { bankAccountEvent } from "./bank-account-events.ts";
import { paymentMethodSavedEvent, type PaymentEventsDeps } from "../shared/payment-events.ts";
import type { PaymentMethodRecord } from "./payment-method.entity.ts";
import type { AccountDescription, BankDataPort } from "./ports/bank-data.port.ts";
import type { CheckoutsPort, RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { ClaimsPort } from "./ports/claims.port.ts";
import type { PaymentMethodsPort } from "./ports/payment-methods.port.ts";
import type { TransferAttemptsPort } from "../transfers/ports/transfer-attempts.port.ts";
import type { SecretBox } from "@payrail/runtime";
import type { MandatesPort } from "../mandates/ports/mandates.port.ts";
import type { MerchantsPort } from "../shared/ports/merchants.port.ts";
import { buildConsumerMandate, checkTextVersion, storeMandate } from "../mandates/record-mandate.ts";
import { revokeMandate } from "../mandates/revoke-mandate.ts";

export const PAYMENT_METHOD_SAVED = "Payment method saved";

/** Saves that lose to a racing save of the same checkout read again; a few at most. */
const TRIES = 3;

/**
 * Exchange Public Token, in an order that never leaves half a payment method behind:
 * 1. the same checks as Create Link Token (link token, linkable, this consumer's claim);
 * 2. once a transfer started the method can no longer change (409 `checkout_closed`);
 * 3. the exchange at the provider: a used or expired public token fails here, before any write;
 * 4. the payment method, its access token sealed, replaces any earlier one of the checkout, in
 *    one write with the payment_method.saved event by which the checkout moves to
 *    `payment_method_saved` (a subscriber: no call back); an account the bank-data provider
 *    could not validate is saved unvalidated, with bank_account.validation_required in the same
 *    write (micro-deposits validate it before any debit);
 * 5. with `mandate`, the consumer's acceptance is stored after the method that names it: a crash
 *    between the two leaves a method whose mandate is missing, which no debit accepts (409
 *    `mandate_required`), rather than a mandate for an account never saved. A mandate of an
 *    earlier link of the same checkout is revoked: it was for another account.
 */
export async function exchangePublicToken(
  deps: PaymentEventsDeps & {
    checkouts: Pick<CheckoutsPort, "verifyLinkToken">;
    claims: ClaimsPort;
    paymentMethods: PaymentMethodsPort;
    attempts: Pick<TransferAttemptsPort, "find">;
    bankData: BankDataPort;
    secretBox: SecretBox;
    logger: Logger;
    merchants: Pick<MerchantsPort, "merchantName">;
    mandates: Pick<MandatesPort, "create" | "find" | "revoke">;
    now(): Date;
  },
  meta: RequestMeta,
  user: UserPrincipal,
  input: {
    checkout_id: string;
    link_token: string;
    public_token: string;
    bankdata_account_id: string;
    mandate?: { text_version: string } | undefined;
    client?: { ip_address: string; user_agent: string } | undefined;
  },
): Promise<{ message: string }> {
  const checkout = await claimCheckout(deps, meta, user, input.checkout_id, input.link_token);
  // The transfer attempt took its own copy of the method when it started: a later one would never be used.
  if (await deps.attempts.find(checkout.id)) {
    throw new AppError("checkout_closed", `checkout ${checkout.id} has a transfer; its payment method can no longer change`, { param: "checkout_id" });
  }
  if (input.mandate) checkTextVersion(input.mandate.text_version);
  // Asked before the public token is spent: a failure here leaves the consumer's token usable.
  const merchantName = input.mandate ? await deps.merchants.merchantName(meta, checkout.merchant_id) : null;
  const item = await deps.bankData.exchangePublicToken(input.public_token);
  const { validated, ...bankAccount } = await describeAccount(deps, item.accessToken, input.bankdata_account_id, !!input.mandate);
  const now = nowIso();
  // NACHA's WEB rule: the account the provider returned numbers for is validated now; any other
  // waits for micro-deposits, and no debit is made from it until then.
  const validation: AccountValidationRecord | null = validated ? { method: "bank_data_provider", validatedAt: now } : null;
  const acceptance = input.mandate
    ? { textVersion: input.mandate.text_version, ipAddress: input.client?.ip_address ?? null, userAgent: input.client?.user_agent ?? null }
    : null;
  const mandate =
    acceptance && merchantName !== null ? buildConsumerMandate(merchantName, checkout, user.userId, acceptance, bankAccount, deps.now(), deps.now(), validation) : null;
  const method: PaymentMethodRecord = {
    _id: checkout.id,
    checkoutNumber: checkout.number,
    merchantId: checkout.merchant_id,
    userId: user.userId,
    userPhone: user.phone,
    provider: deps.bankData.provider,
    itemId: item.itemId,
    accountId: input.bankdata_account_id,
    accessTokenSealed: deps.secretBox.seal(item.accessToken, checkout.id),
    bankAccount,
    mandateId: mandate?._id ?? null,
    createdAt: now,
    updatedAt: now,
    validation,
    microDeposits: null,
  };
  let replaced: PaymentMethodRecord | null = null;
  for (let i = 0; ; i++) {
    const previous = await deps.paymentMethods.findByCheckout(checkout.id);
    const version = (previous?.version ?? 0) + 1;
    const saved = { ...method, version, validationVersion: (previous?.validationVersion ?? 0) + 1 };
    const events = [paymentMethodSavedEvent(checkout.id, checkout.merchant_id, user.userId, version, now, deps.livemode)];
    if (!validation) events.push(bankAccountEvent("bank_account.validation_required", saved, now, deps.livemode));
    if (await deps.paymentMethods.save(saved, previous, events)) {
      replaced = previous;
      break;
    }
    if (i + 1 >= TRIES) throw new AppError("transfer_in_progress", `the payment method of checkout ${checkout.id} is being saved by another call; retry shortly`, { retryAfter: 1 });
  }
  deps.events.written();
  if (mandate) await storeMandate(deps, mandate);
  if (replaced?.mandateId) await revokeMandate(deps, replaced.mandateId, now);
  deps.logger.info({ requestId: meta.requestId, checkoutId: checkout.id, itemId: item.itemId }, "payment method saved");
  return { message: PAYMENT_METHOD_SAVED };
}

/**
 * The account's bank and last digits. A mandate must name the account it authorizes, so with
 * one a refusal fails the exchange (before any write); without one (the seed's flow, whose
 * account is checked at the processor-token step as before) the record just lacks them.
 */
async function describeAccount(
  deps: { bankData: BankDataPort; logger: Logger },
  accessToken: string,
  accountId: string,
  strict: boolean,
): Promise<AccountDescription> {
  try {
    return await deps.bankData.describeAccount({ accessToken, accountId });
  } catch (err) {
    if (strict || !(err instanceof AppError && err.code === "provider_error")) throw err;
    // Not knowing whether the provider validated it, the account is treated as not validated.
    deps.logger.warn({ providerCode: err.providerCode }, "could not describe the linked account; kept without bank and mask, not validated");
    return { institution: null, mask: null, validated: false };
  }
}
