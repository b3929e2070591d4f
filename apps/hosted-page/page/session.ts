import { h } from "./dom.ts";

/** The order as `GET /api/consumers/checkout/{id}` answers it. */
export interface HostedCheckout {
  id: string;
  merchant_name: string;
  status: string;
  amounts: { total: string; subtotal: string; tax: string; shipping: string; discount_total: string | null; currency: string };
  /** `image` is https or null: the checkout service drops any other URL. */
  items: { name: string; quantity: number; price: string | null; image: string | null }[];
  is_subscription: boolean;
  plan_type: string | null;
  redirect_confirm_url: string;
  redirect_cancel_url: string;
}

/** A bank account the consumer may pay from, as the bank-data provider describes it. */
export interface Account {
  account_id: string;
  name: string;
  mask: string;
  subtype: string;
}

/** The debit authorization as Get Mandate Text answers it. */
export interface MandateText {
  text_version: string;
  text: string;
}

/** Everything the page knows, in memory only. */
export interface Session {
  checkoutId: string;
  /** The merchant's link token, from the URL fragment. */
  linkToken: string;
  sandbox: boolean;
  /** DEFAULT_PHONE_COUNTRY: numbers of this country need no country code. */
  phoneCountry: string;
  checkout: HostedCheckout;
  phone?: string;
  /** The consumer's auth token after Verify Code: never written anywhere. */
  authToken?: string;
}

/** The merchant's URL with `?checkout_id=…` added (docs/api-notes.md, The hosted page, the dashboard and the portal). */
export function merchantUrl(base: string, checkoutId: string): string {
  const url = new URL(base);
  url.searchParams.set("checkout_id", checkoutId);
  return url.toString();
}

/** Leaves for the merchant's cancel URL: offered on every step. */
export function cancelButton(session: Session): HTMLButtonElement {
  const button = h("button", { type: "button", class: "secondary" }, "Cancel and return to the merchant");
  button.addEventListener("click", () => window.location.assign(merchantUrl(session.checkout.redirect_cancel_url, session.checkoutId)));
  return button;
}

export function sandboxBanner(session: Session): HTMLElement | null {
  if (!session.sandbox) return null;
  return h("p", { class: "sandbox", role: "note" }, "Sandbox: a test checkout. No real bank is contacted and no money moves.");
}

export function money(amount: string, currency: string): string {
  const value = Number(amount);
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(value);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** Headers of the consumer routes once signed in. */
export function consumerHeaders(session: Session): Record<string, string> {
  return { authorization: `Token ${session.authToken ?? ""}`, "link-token": session.linkToken };
}
