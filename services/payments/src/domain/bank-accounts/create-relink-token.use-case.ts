import type { MandateText, UserPrincipal } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import { firstPeriodFrom, periodStart } from "../renewals/billing-period.ts";
import { learntAt } from "../renewals/follow-returned-charge.ts";
import { RELINK_MANDATE_TEXT_VERSION, renderMandateText } from "../mandates/mandate-text.ts";
import { ownLiveSubscription } from "../subscriptions/own-subscription.ts";
import type { BankDataPort } from "./ports/bank-data.port.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { MerchantsPort } from "../shared/ports/merchants.port.ts";
import type { TransactionsPort } from "../transactions/ports/transactions.port.ts";
import type { TransferAttemptsPort } from "../transfers/ports/transfer-attempts.port.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";

export interface RelinkTextDeps {
  transactions: Pick<TransactionsPort, "findByUuid">;
  attempts: Pick<TransferAttemptsPort, "find">;
  merchants: Pick<MerchantsPort, "merchantName">;
  now(): Date;
}

/**
 * A bank-linking token for the consumer to link another account to their subscription, and the
 * recurring authorization text (this merchant, amount and frequency, from the next charge).
 */
export async function createRelinkToken(
  deps: RelinkTextDeps & { bankData: Pick<BankDataPort, "createLinkToken">; logger: Logger },
  meta: RequestMeta,
  user: UserPrincipal,
  input: { subscription_transaction_uuid: string },
): Promise<{ link_token: string; expiration: string; mandate: MandateText }> {
  const a = await ownLiveSubscription(deps, user, input.subscription_transaction_uuid);
  const { text_version, text } = await relinkMandateText(deps, meta, a);
  const token = await deps.bankData.createLinkToken({ clientUserId: user.userId, checkoutId: a._id });
  deps.logger.info({ requestId: meta.requestId, checkoutId: a._id, providerRequestId: token.requestId }, "bank-linking token created for a re-link");
  return { link_token: token.linkToken, expiration: token.expiration, mandate: { text_version, text } };
}

/** The recurring mandate's words for a re-link of `a` (the change of account's own wording), and the first debit they name. */
export async function relinkMandateText(deps: RelinkTextDeps, meta: RequestMeta, a: TransferAttemptRecord) {
  const merchantName = await deps.merchants.merchantName(meta, a.merchantId);
  const firstDebitOn = new Date(nextChargeAfterRelink(a, deps.now().toISOString()).at);
  const checkout = { id: a._id, merchant_id: a.merchantId, amount_cents: a.amountCents, currency: a.currency, is_subscription: true, plan_type: a.planType ?? null };
  return { ...renderMandateText({ merchantName, checkout, firstDebitOn }, RELINK_MANDATE_TEXT_VERSION)!, merchantName, checkout, firstDebitOn };
}

/**
 * When the subscription charges next once re-linked: a live one keeps its schedule; an `unpaid`
 * one resumes at the first period that starts after now (the sandbox: its test clock), with
 * no catch-up charge for the period that went unpaid (docs/decisions/0034-blocked-bank-accounts.md).
 */
export function nextChargeAfterRelink(a: TransferAttemptRecord, now: string): { period: number | null; at: string } {
  if (a.subscriptionStatus !== "unpaid" || !a.anchorAt || !a.planType) return { period: null, at: a.nextChargeAt ?? now };
  const period = firstPeriodFrom(a.anchorAt, a.planType, a.period ?? 1, learntAt(a, now));
  return { period, at: periodStart(a.anchorAt, a.planType, period) };
}
