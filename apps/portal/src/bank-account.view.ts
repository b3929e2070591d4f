import type { SandboxPublicTokenResponse } from "@payrail/contracts";
import type { z } from "zod";
import { csrfField, html, type Html } from "@payrail/web";
import { PORTAL_PATH } from "./portal-session.ts";

type Account = z.infer<typeof SandboxPublicTokenResponse>["accounts"][number];

export interface AccountChoice {
  transactionUuid: string;
  publicToken: string;
  accounts: readonly Account[];
  mandate: { text_version: string; text: string };
}

/**
 * The sandbox bank's accounts to choose from (none chosen for the consumer: the one to leave
 * may be among them), under the new authorization's words, and the one button that accepts them.
 */
export function accountChoice(csrf: string, choice: AccountChoice, error?: string): Html {
  const options = choice.accounts.map(
    (a) => html`<label class="account"><input type="radio" name="account_id" value="${a.account_id}" required> <span>${a.name} ending ${a.mask} <span class="muted">(${a.subtype})</span></span></label>`,
  );
  return html`${error ? html`<p class="error" role="alert">${error}</p>` : ""}
<form method="post" action="${PORTAL_PATH}/subscriptions/${choice.transactionUuid}/bank-account">${csrfField(csrf)}
<input type="hidden" name="public_token" value="${choice.publicToken}"><input type="hidden" name="text_version" value="${choice.mandate.text_version}">
<fieldset><legend>Choose the account to pay from (sandbox bank)</legend>${options}</fieldset>
<section class="mandate" aria-labelledby="mandate-title"><h2 id="mandate-title">Debit authorization</h2><p>${choice.mandate.text}</p></section>
<div class="actions"><button type="submit" class="primary">Accept and use this account</button><a class="button secondary" href="${PORTAL_PATH}/subscriptions">Keep the current account</a></div></form>`;
}

export interface LiveChoice {
  transactionUuid: string;
  linkToken: string;
  mandate: { text_version: string; text: string };
}

/**
 * Live mode: the new authorization's words, a button that opens Plaid Link with the
 * bank-linking token (page/portal-relink.ts, the page's one script), and the form the accounts
 * the consumer shares in Link fill, which posts back as the sandbox picker's does. The button
 * is enabled by the script, so without it nothing pretends to work.
 */
export function liveAccountChoice(csrf: string, choice: LiveChoice, error?: string): Html {
  return html`${error ? html`<p class="error" role="alert">${error}</p>` : ""}
<div data-link-token="${choice.linkToken}">
<p>Connect the bank you want this subscription to draw on; your bank's window opens over this page.</p>
<section class="mandate" aria-labelledby="mandate-title"><h2 id="mandate-title">Debit authorization</h2><p>${choice.mandate.text}</p></section>
<noscript><p class="error">Connecting a bank needs JavaScript in this browser. You can also open the merchant's payment link again.</p></noscript>
<p id="link-status" role="status"></p>
<div class="actions"><button type="button" id="connect-bank" class="primary" disabled>Connect your bank</button><a class="button secondary" href="${PORTAL_PATH}/subscriptions">Keep the current account</a></div>
<form id="relink-form" method="post" action="${PORTAL_PATH}/subscriptions/${choice.transactionUuid}/bank-account" hidden>${csrfField(csrf)}
<input type="hidden" name="public_token" value=""><input type="hidden" name="text_version" value="${choice.mandate.text_version}">
<fieldset><legend>Choose the account to pay from</legend><div id="account-choices"></div></fieldset>
<div class="actions"><button type="submit" class="primary">Accept and use this account</button></div></form>
</div>`;
}
