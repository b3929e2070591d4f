import { api, ApiError } from "./api.ts";
import { errorLine, h, show } from "./dom.ts";
import { failStep } from "./messages.ts";
import { openPlaidLink } from "./plaid-link.ts";
import { validationStep } from "./micro-deposits.step.ts";
import { cancelButton, consumerHeaders, merchantUrl, sandboxBanner, type Account, type MandateText, type Session } from "./session.ts";

/**
 * Step 4: bank linking. Create Link Token gives the bank-data provider's token; in live mode
 * Plaid Link (its own UI) signs in to the bank, in sandbox the simulated picker answers. Either
 * way the consumer then chooses the account here, under the debit authorization text (Get
 * Mandate Text, fetched alongside). Never throws: failures become a message.
 */
export async function bankStep(session: Session): Promise<void> {
  show("Connecting to your bank…", sandboxBanner(session), h("p", { class: "muted" }, "This takes a moment."));
  try {
    const path = `/api/consumers/checkout/${encodeURIComponent(session.checkoutId)}`;
    const [bank, mandate] = await Promise.all([
      api<{ link_token: string }>("POST", `${path}/create_link_token`, consumerHeaders(session)),
      api<MandateText>("GET", `${path}/mandate_text`, consumerHeaders(session)),
    ]);
    if (session.sandbox) {
      const picked = await api<{ public_token: string; accounts: Account[] }>(
        "POST",
        `/api/sandbox/consumers/checkout/${encodeURIComponent(session.checkoutId)}/public_token`,
        consumerHeaders(session),
        { link_token: bank.link_token },
      );
      return accountStep(session, mandate, picked.public_token, picked.accounts);
    }
    const linked = await openPlaidLink(bank.link_token);
    if (!linked) return linkClosedStep(session);
    return accountStep(session, mandate, linked.publicToken, linked.accounts);
  } catch (err) {
    failStep(err, session);
  }
}

function linkClosedStep(session: Session): void {
  const retry = h("button", { type: "button", class: "primary" }, "Link a bank account");
  retry.addEventListener("click", () => void bankStep(session));
  show("No bank account linked yet", h("p", {}, "You closed the bank window before choosing an account."), h("div", { class: "actions" }, retry, cancelButton(session)));
}

/**
 * Step 5: the account to pay from and, before the pay button, the authorization the consumer
 * gives by pressing it; Exchange Public Token saves the account and records the acceptance of
 * that text's version (the gateway adds the address and browser it came from).
 */
function accountStep(session: Session, mandate: MandateText, publicToken: string, accounts: Account[]): void {
  const error = errorLine("account-error");
  const options = accounts.map((account, i) =>
    h(
      "label",
      { class: "account" },
      h("input", { type: "radio", name: "account", value: account.account_id, checked: i === 0 }),
      h("span", {}, h("span", {}, account.name), h("span", { class: "muted" }, `${account.subtype} ending in ${account.mask}`)),
    ),
  );
  const submit = h("button", { type: "submit", class: "primary", "aria-describedby": "mandate-text" }, "Pay from this account");
  const form = h(
    "form",
    { novalidate: true },
    h("fieldset", {}, h("legend", {}, "Choose the account to pay from"), ...options),
    h("section", { class: "mandate", "aria-labelledby": "mandate-title" }, h("h2", { id: "mandate-title" }, "Debit authorization"), h("p", { id: "mandate-text" }, mandate.text)),
    error,
    h("div", { class: "actions" }, submit, cancelButton(session)),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const chosen = form.querySelector<HTMLInputElement>("input[name=account]:checked");
    if (!chosen) {
      error.textContent = "Choose an account.";
      return;
    }
    submit.disabled = true;
    try {
      await api("POST", `/api/consumers/checkout/${encodeURIComponent(session.checkoutId)}/exchange_public_token`, consumerHeaders(session), {
        public_token: publicToken,
        bankdata_account_id: chosen.value,
        mandate: { text_version: mandate.text_version },
      });
      // An account the bank could not validate gets micro-deposits first (validationStep).
      await validationStep(session, () => doneStep(session), () => void bankStep(session));
    } catch (err) {
      if (err instanceof ApiError && err.status >= 500) {
        submit.disabled = false;
        error.textContent = `${err.message} Try again.`;
        return;
      }
      failStep(err, session);
    }
  });
  const title = session.sandbox ? "Choose an account (sandbox bank)" : "Choose an account";
  show(title, sandboxBanner(session), form);
}

/** Seconds before the page returns to the merchant by itself: time for a screen reader to read the step. */
export const RETURN_AFTER_SECONDS = 10;

/**
 * Step 6: confirmation, then back to the merchant's confirm URL. The automatic return is
 * announced in a live region and can be stopped (WCAG 2.2.1, timing adjustable); the link
 * returns at once.
 */
export function doneStep(session: Session): void {
  const target = merchantUrl(session.checkout.redirect_confirm_url, session.checkoutId);
  const merchant = session.checkout.merchant_name;
  const status = h("p", { role: "status", id: "return-status" }, "");
  const stay = h("button", { type: "button", class: "secondary" }, "Stay on this page");
  const back = h("a", { class: "button primary", href: target }, `Return to ${merchant}`);
  show(
    "Bank account linked",
    h("p", { class: "done", "aria-hidden": "true" }, "✓"),
    h("p", {}, `${merchant} will now take the payment from your account.`),
    status,
    h("div", { class: "actions" }, back, stay),
    // The consumer portal: where this payment, and any subscription, can be seen and cancelled.
    h("p", { class: "muted" }, "See your payments by bank and cancel a subscription at any time in ", h("a", { href: "/account" }, "your payments account"), "."),
  );
  const timer = window.setTimeout(() => window.location.assign(target), RETURN_AFTER_SECONDS * 1000);
  // Filled after the region exists, so screen readers announce it.
  const announce = window.setTimeout(() => (status.textContent = `Taking you back to ${merchant} in ${RETURN_AFTER_SECONDS} seconds.`), 50);
  stay.addEventListener("click", () => {
    window.clearTimeout(timer);
    window.clearTimeout(announce);
    status.textContent = `You stay here. Return to ${merchant} when you are ready.`;
    // The button goes; focus moves to what is left to do rather than to the page's start.
    stay.remove();
    back.focus();
  });
}
