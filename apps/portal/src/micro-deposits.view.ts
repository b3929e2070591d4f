import type { BankAccountValidationState } from "@payrail/contracts";
import { csrfField, html, type Html } from "@payrail/web";
import { day } from "./portal-format.ts";
import { PORTAL_PATH } from "./portal-session.ts";

const base = (transactionUuid: string) => `${PORTAL_PATH}/subscriptions/${transactionUuid}/bank-account`;

/** Where to find the amounts: a sandbox's deposits reach no statement. */
function where(sandbox: boolean): Html {
  return sandbox
    ? html`<p class="muted">In the sandbox no statement shows them: the sandbox notices of this subscription's checkout (GET /api/sandbox/notices, type micro_deposits) do.</p>`
    : html`<p class="muted">They appear on your bank statement within 1–2 business days, described ACCTVERIFY, with a withdrawal of the same total.</p>`;
}

const tries = (left: number) => (left === 1 ? "You have 1 try left." : `You have ${left} tries left.`);

const chooseAnother = (transactionUuid: string, primary = false) =>
  html`<a class="button ${primary ? "primary" : "secondary"}" href="${base(transactionUuid)}">Choose another account</a>`;

/**
 * The pending change of account as it stands (docs/decisions/0043-portal-micro-deposits.md):
 * the two-amount form while a pair is open (tries left, the day it expires), a new pair after
 * it expired, the locked account (choose another), the change to finish once validated.
 */
export function pendingChange(csrf: string, transactionUuid: string, state: BankAccountValidationState, now: Date, sandbox: boolean, error?: string): Html {
  const md = state.micro_deposits;
  const keep = html`<a class="button secondary" href="${PORTAL_PATH}/subscriptions">Back to subscriptions</a>`;
  const post = (label: string) =>
    html`<form method="post" action="${base(transactionUuid)}/deposits">${csrfField(csrf)}<div class="actions"><button type="submit" class="primary">${label}</button>${chooseAnother(transactionUuid)}${keep}</div></form>`;
  if (state.status === "locked") {
    return html`<p class="error" role="alert">Three wrong pairs of amounts were entered, so this bank account cannot be used for your subscription. It keeps drawing on your current account.</p>
<div class="actions">${chooseAnother(transactionUuid, true)}${keep}</div>`;
  }
  if (state.status === "validated") {
    return html`${error ? html`<p class="error" role="alert">${error}</p>` : ""}<p>Your bank account is confirmed. Finish the change to have your subscription draw on it.</p>${post("Finish the change")}`;
  }
  if (state.status === "validation_required" || !md) {
    return html`<p>Your bank could not confirm the new account at once, so we send it two small deposits of less than $1 each. Your subscription keeps drawing on your current account meanwhile.</p>${post("Send the deposits")}`;
  }
  if (Date.parse(md.expires_at) <= now.getTime()) {
    return html`<p role="alert">The deposits sent on ${day(md.sent_at)} have expired: the amounts can be entered for 10 days. We can send two new deposits to the same account.</p>${post("Send two new deposits")}`;
  }
  const invalid = error ? html` aria-invalid="true"` : "";
  return html`<p>Your bank could not confirm the new account at once, so we sent it two small deposits of less than $1 each. Your subscription keeps drawing on your current account until you enter them.</p>
${where(sandbox)}
<form method="post" action="${base(transactionUuid)}/verify">${csrfField(csrf)}
<label for="amount-1">First deposit ($)</label>
<input id="amount-1" name="amount_1" type="text" inputmode="decimal" autocomplete="off" placeholder="0.00" required aria-describedby="amounts-hint amounts-tries${error ? " amounts-error" : ""}"${invalid}>
<label for="amount-2">Second deposit ($)</label>
<input id="amount-2" name="amount_2" type="text" inputmode="decimal" autocomplete="off" placeholder="0.00" required aria-describedby="amounts-hint amounts-tries${error ? " amounts-error" : ""}"${invalid}>
<p class="hint" id="amounts-hint">Enter each amount in dollars, for example 0.07, in any order, by ${day(md.expires_at)}.</p>
<p class="hint" id="amounts-tries">${tries(md.tries_left)}</p>
${error ? html`<p class="error" id="amounts-error" role="alert">${error}</p>` : ""}
<div class="actions"><button type="submit" class="primary">Confirm my account</button>${chooseAnother(transactionUuid)}${keep}</div></form>`;
}
