import type { ConsumerListQuery, ConsumerSubscription, UserPrincipal } from "@payrail/contracts";
import { bankAccountView } from "../bank-accounts/bank-account-view.ts";
import { merchantNames, pageOf } from "../shared/merchant-names.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { BlockedBankAccountsPort } from "../returns/ports/blocked-bank-accounts.port.ts";
import type { MandatesPort } from "../mandates/ports/mandates.port.ts";
import type { MerchantsPort } from "../shared/ports/merchants.port.ts";
import type { PaymentMethodsPort } from "../bank-accounts/ports/payment-methods.port.ts";
import type { TransferAttemptsPort } from "../transfers/ports/transfer-attempts.port.ts";
import { attestedMandateId } from "../mandates/require-debit-mandate.ts";
import { amountOf } from "../transactions/transaction.entity.ts";
import { amountForPeriod } from "../renewals/upcoming-charge.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";

export interface ConsumerSubscriptionsDeps {
  attempts: Pick<TransferAttemptsPort, "subscriptionsOf">;
  paymentMethods: Pick<PaymentMethodsPort, "findByCheckout">;
  mandates: Pick<MandatesPort, "find">;
  merchants: Pick<MerchantsPort, "merchantName">;
  blocks: Pick<BlockedBankAccountsPort, "find">;
}

/**
 * `GET /api/consumers/subscriptions`: this consumer's subscriptions (kept on their checkouts'
 * transfer attempts, so one exists once its first charge was started), newest checkout first,
 * a page at a time on the user_subscriptions index; each with its schedule, mandate and the
 * bank account it draws on now (blocked or not, by the blocking rules). A sandbox token sees its
 * merchant's only.
 */
export async function listConsumerSubscriptions(
  deps: ConsumerSubscriptionsDeps,
  meta: RequestMeta,
  user: UserPrincipal,
  query: ConsumerListQuery,
): Promise<{ data: ConsumerSubscription[]; has_more: boolean; next_cursor: string | null }> {
  const before = query.cursor === undefined ? undefined : Number(query.cursor);
  const attempts = await deps.attempts.subscriptionsOf(user.userId, query.limit + 1, before, user.merchantId);
  const { page, has_more, next_cursor } = pageOf(attempts, query.limit, (a) => a.checkoutNumber);
  const names = await merchantNames(deps, meta, page.map((a) => a.merchantId));
  const data = await Promise.all(page.map((a) => toSubscription(deps, a, names.get(a.merchantId)!)));
  return { data, has_more, next_cursor };
}

async function toSubscription(deps: ConsumerSubscriptionsDeps, a: TransferAttemptRecord, merchantName: string): Promise<ConsumerSubscription> {
  const method = await deps.paymentMethods.findByCheckout(a._id);
  const mandate = await deps.mandates.find(method?.mandateId ?? attestedMandateId(a._id));
  const account = (await bankAccountView(deps, method, a.fundingFingerprint)) ?? { ...(mandate?.bankAccount ?? { institution: null, mask: null }), blocked: false };
  return {
    checkout_id: a._id,
    subscription_transaction_uuid: a.transactionUuid,
    merchant_name: merchantName,
    status: a.subscriptionStatus ?? (a.subscriptionCancelledAt ? "cancelled" : "incomplete"),
    // What the next charge debits (a merchant's new amount once its period has come).
    amount: amountOf(a.period === undefined ? a.amountCents : amountForPeriod(a, a.period)),
    currency: a.currency,
    interval: a.planType ?? "",
    next_charge_at: a.subscriptionCancelledAt ? null : (a.nextChargeAt ?? null),
    mandate_id: mandate?._id ?? null,
    bank_account: { institution: account.institution, mask: account.mask, blocked: account.blocked },
  };
}
