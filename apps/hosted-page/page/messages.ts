import { ApiError } from "./api.ts";
import { h, show } from "./dom.ts";
import { merchantUrl, type Session } from "./session.ts";

/** A step the consumer cannot go past: says why, and offers the way back to the merchant if known. */
export function messageStep(title: string, text: string, session?: Session, back: "cancel" | "confirm" = "cancel"): void {
  const target = session && (back === "confirm" ? session.checkout.redirect_confirm_url : session.checkout.redirect_cancel_url);
  show(
    title,
    h("p", {}, text),
    target ? h("div", { class: "actions" }, h("a", { class: "button secondary", href: merchantUrl(target, session.checkoutId) }, `Return to ${session.checkout.merchant_name}`)) : null,
  );
}

/** The message for an error that ends the page: a link that no longer works, a checkout taken. */
export function failStep(err: unknown, session?: Session): void {
  const code = err instanceof ApiError ? err.code : "";
  if (code === "link_token_expired") {
    return messageStep("This payment link has expired", "Payment links work for 24 hours. Go back to the shop to get a new one.", session);
  }
  if (code === "link_token_invalid" || code === "link_token_mismatch" || code === "link_token_missing" || code === "checkout_not_found") {
    return messageStep("This payment link does not work", "Check that you opened the whole link the shop gave you, or go back to the shop to get a new one.", session);
  }
  if (code === "checkout_claimed") {
    return messageStep("This order is being paid by someone else", "Another phone number has already started paying this order.", session);
  }
  if (code === "checkout_closed") return messageStep("This order is already paid", "There is nothing more to pay.", session, "confirm");
  if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
    return messageStep("Your session has ended", "For your security, open the payment link again to continue.", session);
  }
  const detail = err instanceof ApiError ? err.message : "Something went wrong on this page.";
  messageStep("We could not continue", `${detail} Try again later, or go back to the shop.`, session);
}

/** A checkout that is no longer open explains itself instead of asking for a phone number. */
export function closedCheckoutStep(session: Session): boolean {
  const { status } = session.checkout;
  if (status === "open") return false;
  if (status === "payment_method_saved") {
    messageStep("Your bank account is already linked", "This order is waiting for the shop to take the payment.", session, "confirm");
  } else if (status === "failed") {
    messageStep("This payment did not go through", "Go back to the shop to try again.", session);
  } else {
    messageStep("This order is already paid", "There is nothing more to pay.", session, "confirm");
  }
  return true;
}
