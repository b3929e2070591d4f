import type { ConsumerSubscription, SubscriptionMandate } from "@payrail/contracts";
import { csrfField, html, type Html } from "@payrail/web";
import { day, money, perPeriod, subscriptionStatus } from "./portal-format.ts";
import { PORTAL_PATH } from "./portal-session.ts";

function account(s: ConsumerSubscription): string {
  const { institution, mask } = s.bank_account;
  return [institution ?? "Bank account", mask ? `ending ${mask}` : ""].filter(Boolean).join(" ");
}

/** The words the consumer accepted, or why there are none to show. */
export function mandateText(mandate: SubscriptionMandate | null): Html {
  if (!mandate) return html`<p class="muted">No debit authorization is recorded for this subscription yet.</p>`;
  const state = mandate.status === "revoked" ? `Revoked on ${day(mandate.revoked_at ?? mandate.accepted_at)}.` : `Accepted on ${day(mandate.accepted_at)}.`;
  const words = mandate.text ? html`<p>${mandate.text}</p>` : html`<p class="muted">The merchant collected this authorization on its own site; ask them for its wording.</p>`;
  return html`<div class="mandate">${words}<p class="muted">${state} Reference ${mandate.mandate_id}.</p></div>`;
}

/** What a blocked account means, and what to do about it. */
function blockedHelp(live: boolean): Html {
  const todo = live ? "Link another account to keep this subscription." : "Use another account for your next payments.";
  return html`<p class="error" role="note">Your bank returned a payment from this account, so no shop may debit it any more and this subscription's payments have stopped. ${todo}</p>`;
}

/**
 * One subscription. Its heading names the section (a region landmark): two subscriptions of one
 * merchant for the same amount would share a name, so the checkout id is read out after it.
 */
function card(s: ConsumerSubscription, mandate: SubscriptionMandate | null): Html {
  const live = s.status !== "cancelled";
  return html`<section class="card" aria-labelledby="sub-${s.checkout_id}"><h2 id="sub-${s.checkout_id}">${s.merchant_name}: ${money(s.amount, s.currency)} every ${perPeriod(s.interval)}<span class="vh">, subscription ${s.checkout_id}</span></h2>
<dl><dt>Status</dt><dd>${subscriptionStatus(s.status)}</dd>
<dt>Next charge</dt><dd>${s.next_charge_at && live ? day(s.next_charge_at) : "None"}</dd>
<dt>Paid from</dt><dd>${account(s)}${s.bank_account.blocked ? html` <strong class="error">Blocked</strong>` : ""}</dd></dl>
${s.bank_account.blocked ? blockedHelp(live) : ""}
<h3 class="muted">Your debit authorization</h3>${mandateText(mandate)}
${live ? html`<div class="actions"><a class="button secondary" href="${PORTAL_PATH}/subscriptions/${s.subscription_transaction_uuid}/bank-account">Change bank account<span class="vh"> for ${s.merchant_name}</span></a>
<a class="button secondary" href="${PORTAL_PATH}/subscriptions/${s.subscription_transaction_uuid}/cancel">Cancel subscription<span class="vh"> to ${s.merchant_name}</span></a></div>` : ""}</section>`;
}

export function subscriptionsList(subs: readonly { subscription: ConsumerSubscription; mandate: SubscriptionMandate | null }[], nextCursor: string | null, notice?: string): Html {
  const top = notice ? html`<p class="notice" role="status">${notice}</p>` : "";
  if (subs.length === 0) return html`${top}<p>No subscriptions.</p>`;
  return html`${top}${subs.map((s) => card(s.subscription, s.mandate))}
${nextCursor ? html`<p><a href="${PORTAL_PATH}/subscriptions?cursor=${nextCursor}">More subscriptions</a></p>` : ""}`;
}

/** The confirmation step: what stops, and the one button that stops it. */
export function cancelConfirmation(csrf: string, transactionUuid: string, mandate: SubscriptionMandate | null): Html {
  return html`<p>Cancelling stops every future payment of this subscription and revokes the authorization below. Payments already made are not affected.</p>
${mandateText(mandate)}
<form method="post" action="${PORTAL_PATH}/subscriptions/${transactionUuid}/cancel">${csrfField(csrf)}
<div class="actions"><button type="submit" class="danger">Yes, cancel the subscription</button><a class="button secondary" href="${PORTAL_PATH}/subscriptions">No, keep it</a></div></form>`;
}
