import { api } from "./api.ts";
import { closedCheckoutStep, failStep, messageStep } from "./messages.ts";
import type { HostedCheckout } from "./session.ts";
import { summaryStep } from "./summary.step.ts";
import { alreadyLinkedStep } from "./micro-deposits.step.ts";
import { phoneStep } from "./phone.step.ts";

/**
 * The consumer's hosted page: `/pay/{checkout_id}#link_token=…`. Reads the checkout id from the
 * path and the merchant's link token from the fragment (which no server ever sees), loads the
 * order, and walks the steps: summary → phone → code → bank → account → back to the merchant.
 */
async function start(): Promise<void> {
  const checkoutId = safeDecode(window.location.pathname.split("/").filter(Boolean)[1] ?? "");
  const linkToken = new URLSearchParams(window.location.hash.slice(1)).get("link_token") ?? "";
  if (!checkoutId || !linkToken) {
    return messageStep("This payment link is incomplete", "Open the whole link the shop gave you, or go back to the shop to get a new one.");
  }
  const sandbox = document.querySelector('meta[name="payrail-mode"]')?.getAttribute("content") !== "live";
  const phoneCountry = document.querySelector('meta[name="payrail-phone-country"]')?.getAttribute("content") || "US";
  try {
    const checkout = await api<HostedCheckout>("GET", `/api/consumers/checkout/${encodeURIComponent(checkoutId)}`, { "link-token": linkToken });
    const session = { checkoutId, linkToken, sandbox, phoneCountry, checkout };
    // A linked checkout may be waiting for the consumer's micro-deposit amounts: signing in again leads there.
    if (session.checkout.status === "payment_method_saved") alreadyLinkedStep(session, () => phoneStep(session));
    else if (!closedCheckoutStep(session)) summaryStep(session);
  } catch (err) {
    failStep(err);
  }
}

/** A malformed escape is no checkout id (the page then says the link is incomplete). */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return "";
  }
}

void start();
