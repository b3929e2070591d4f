import { csrfField, html, type Html } from "@payrail/web";
import { PORTAL_PATH } from "./portal-session.ts";

function errorLine(id: string, error: string | undefined): Html | string {
  return error ? html`<p class="error" id="${id}" role="alert">${error}</p>` : "";
}

/** Step 1: the phone number the consumer paid with. */
export function phoneForm(csrf: string, phone = "", error?: string, notice?: string): Html {
  return html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ""}
<p>See and manage what you pay by bank: payments, subscriptions and refunds, at every shop that uses Payrail.</p>
<form method="post" action="${PORTAL_PATH}/sign-in/code">${csrfField(csrf)}
<label for="phone">Mobile phone number</label>
<input id="phone" name="phone" type="tel" autocomplete="tel" inputmode="tel" required value="${phone}"${error ? html` aria-invalid="true" aria-describedby="phone-error"` : html` aria-describedby="phone-hint"`}>
<p class="hint" id="phone-hint">The number you confirmed when you paid, with its country code, e.g. +1 415 555 2671.</p>
${errorLine("phone-error", error)}
<div class="actions"><button type="submit" class="primary">Text me a code</button></div></form>`;
}

/** Step 2: the code texted to that phone, and a way to have another sent. */
export function codeForm(csrf: string, phone: string, error?: string): Html {
  return html`<p>We texted a six-digit code to <strong>${phone}</strong>. It is valid for 10 minutes.</p>
<form method="post" action="${PORTAL_PATH}/sign-in">${csrfField(csrf)}<input type="hidden" name="phone" value="${phone}">
<label for="code">Six-digit code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus${error ? html` aria-invalid="true" aria-describedby="code-error"` : ""}>
${errorLine("code-error", error)}
<div class="actions"><button type="submit" class="primary">Sign in</button></div></form>
<form method="post" action="${PORTAL_PATH}/sign-in/code">${csrfField(csrf)}<input type="hidden" name="phone" value="${phone}">
<button type="submit" class="link">Send a new code</button></form>
<p><a href="${PORTAL_PATH}">Use another number</a></p>`;
}
