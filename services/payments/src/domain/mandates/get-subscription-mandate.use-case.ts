import { AppError, type SubscriptionMandate, type UserPrincipal } from "@payrail/contracts";
import { renderMandateText } from "./mandate-text.ts";
import { ownSubscriptionRecord } from "../subscriptions/own-subscription.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { MandatesPort } from "./ports/mandates.port.ts";
import type { MerchantsPort } from "../shared/ports/merchants.port.ts";
import type { PaymentMethodsPort } from "../bank-accounts/ports/payment-methods.port.ts";
import type { TransactionsPort } from "../transactions/ports/transactions.port.ts";
import type { TransferAttemptsPort } from "../transfers/ports/transfer-attempts.port.ts";
import { mandateIdOf } from "./require-debit-mandate.ts";

/**
 * The mandate of one of the consumer's own subscriptions, with the words they accepted. A
 * mandate keeps the SHA-256 of its text, not the text: the words are rendered again from the
 * same facts (merchant, amount, plan, the first debit they named) and shown only when they hash to
 * what was recorded, so the portal never shows words the consumer did not see.
 */
export async function getSubscriptionMandate(
  deps: {
    transactions: Pick<TransactionsPort, "findByUuid">;
    attempts: Pick<TransferAttemptsPort, "find">;
    paymentMethods: Pick<PaymentMethodsPort, "findByCheckout">;
    mandates: Pick<MandatesPort, "find">;
    merchants: Pick<MerchantsPort, "merchantName">;
  },
  meta: RequestMeta,
  user: UserPrincipal,
  transactionUuid: string,
): Promise<SubscriptionMandate> {
  const transaction = await ownSubscriptionRecord(deps, user, transactionUuid);
  const mandate = await deps.mandates.find(await mandateIdOf(deps, transaction.checkoutRef));
  if (!mandate) throw new AppError("mandate_not_found", `subscription ${transaction.checkoutRef} has no mandate yet`);
  let text: string | null = null;
  if (mandate.textSha256 && mandate.textVersion) {
    const attempt = await deps.attempts.find(transaction.checkoutRef);
    const merchantName = await deps.merchants.merchantName(meta, transaction.merchantId);
    const checkout = { amount_cents: attempt?.amountCents ?? transaction.amountCents, currency: transaction.currency, is_subscription: true, plan_type: attempt?.planType ?? null };
    const rendered = renderMandateText({ merchantName, checkout, firstDebitOn: new Date(mandate.firstDebitOn ?? mandate.acceptedAt) }, mandate.textVersion);
    if (rendered?.sha256 === mandate.textSha256) text = rendered.text;
  }
  return {
    mandate_id: mandate._id,
    type: mandate.type,
    status: mandate.status,
    accepted_at: mandate.acceptedAt,
    revoked_at: mandate.revokedAt,
    text_version: mandate.textVersion,
    text,
  };
}
