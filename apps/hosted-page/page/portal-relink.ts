import { h } from "./dom.ts";
import { openPlaidLink } from "./plaid-link.ts";

/**
 * The consumer portal's bank-account page in live mode: the one portal page with a script.
 * "Connect your bank" opens Plaid Link (the hosted page's loader) with the bank-linking token
 * the server put in the page; the accounts the consumer shared become the form's choices, and
 * the form (CSRF token, the new authorization's version) posts back to the portal as in the
 * sandbox. Nothing here sees the session: it stays in the httpOnly cookie.
 */
function start(): void {
  const root = document.querySelector<HTMLElement>("[data-link-token]");
  const connect = document.querySelector<HTMLButtonElement>("#connect-bank");
  const form = document.querySelector<HTMLFormElement>("#relink-form");
  const status = document.querySelector<HTMLElement>("#link-status");
  const choices = document.querySelector<HTMLElement>("#account-choices");
  const publicToken = form?.querySelector<HTMLInputElement>("input[name=public_token]");
  if (!root || !connect || !form || !status || !choices || !publicToken) return;
  const token = root.dataset.linkToken ?? "";
  connect.disabled = false;
  connect.addEventListener("click", async () => {
    connect.disabled = true;
    status.textContent = "Opening your bank's window…";
    try {
      const linked = await openPlaidLink(token);
      if (!linked) {
        status.textContent = "You closed the bank window before choosing an account.";
        return;
      }
      publicToken.value = linked.publicToken;
      choices.replaceChildren(...linked.accounts.map(accountOption));
      form.hidden = false;
      connect.hidden = true;
      status.textContent = "Bank connected. Choose the account to pay from.";
      choices.querySelector<HTMLInputElement>("input")?.focus();
    } catch {
      status.textContent = "Your bank's window could not be opened. Check your connection and try again.";
    } finally {
      connect.disabled = false;
    }
  });
}

/** One account as the sandbox picker shows it: a radio, its name, mask and kind. */
function accountOption(account: { account_id: string; name: string; mask: string; subtype: string }): HTMLLabelElement {
  const kind = h("span", { class: "muted" }, account.subtype ? `(${account.subtype})` : "");
  const radio = h("input", { type: "radio", name: "account_id", value: account.account_id, required: true });
  return h("label", { class: "account" }, radio, " ", h("span", {}, `${account.name} ending ${account.mask} `, kind));
}

start();
