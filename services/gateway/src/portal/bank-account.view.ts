import type { SandboxPublicTokenResponse } from "@payrail/contracts";
import type { z } from "zod";
import { html, type SafeHtml } from "./html.ts";
import { csrfField } from "./portal-layout.ts";
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
export function accountChoice(csrf: string, choice: AccountChoice, error?: string): SafeHtml {
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

/** Live mode: Plaid Link is a script of Plaid's, and the portal runs none. */
export function liveRelinkUnavailable(): SafeHtml {
  return html`<p>To pay this subscription from another bank account, open the merchant's payment link again, or ask the merchant for a new one. Linking a bank here is available in the sandbox only for now.</p>
<p><a href="${PORTAL_PATH}/subscriptions">Back to subscriptions</a></p>`;
}
