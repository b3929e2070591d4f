import { h, show } from "./dom.ts";
import { phoneStep } from "./phone.step.ts";
import { cancelButton, money, sandboxBanner, type Session } from "./session.ts";

const PLANS: Record<string, string> = { daily: "day", weekly: "week", monthly: "month", quarterly: "quarter", yearly: "year" };

/**
 * An item's picture, from the merchant's https URL (anything else is not shown: the checkout
 * service answers null for it, and this checks again before the browser is asked to load it).
 * It sits in a fixed box, so a slow, missing or broken image moves nothing; it loads lazily and
 * sends no Referer (the page's path names the checkout). A broken one is hidden, box kept.
 */
function itemImage(item: { name: string; image: string | null }): HTMLElement | null {
  if (!item.image?.startsWith("https://")) return null;
  // src last: the fetch's policy and laziness are set before the browser may start it.
  const img = h("img", { alt: item.name, width: "48", height: "48", loading: "lazy", decoding: "async", referrerpolicy: "no-referrer", src: item.image });
  img.addEventListener("error", () => img.classList.add("broken"));
  return img;
}

/** Step 1: what is being paid, to whom, and how often. */
export function summaryStep(session: Session): void {
  const { checkout } = session;
  const { amounts } = checkout;
  const row = (label: string, amount: string, cls = "") =>
    h("tr", { class: cls }, h("th", { scope: "row" }, label), h("td", { class: "amount" }, money(amount, amounts.currency)));
  const items = checkout.items.map((item) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, h("span", { class: "item" }, itemImage(item), h("span", {}, item.quantity > 1 ? `${item.name} × ${item.quantity}` : item.name))),
      h("td", { class: "amount" }, item.price === null ? "" : money(item.price, amounts.currency)),
    ),
  );
  const period = checkout.plan_type ? PLANS[checkout.plan_type] ?? checkout.plan_type : null;
  const table = h(
    "table",
    {},
    h("caption", { class: "muted" }, "Order summary"),
    h("tbody", {}, ...items, row("Subtotal", amounts.subtotal), row("Shipping", amounts.shipping), row("Tax", amounts.tax),
      amounts.discount_total && Number(amounts.discount_total) > 0 ? row("Discount", `-${amounts.discount_total}`) : null,
      row(checkout.is_subscription ? `Total per ${period}` : "Total", amounts.total, "total")),
  );
  const next = h("button", { type: "button", class: "primary" }, "Pay by bank");
  next.addEventListener("click", () => phoneStep(session));
  show(
    `Pay ${money(amounts.total, amounts.currency)}`,
    sandboxBanner(session),
    h("p", { class: "merchant" }, `To ${checkout.merchant_name}`),
    checkout.is_subscription && period ? h("p", { class: "plan" }, `Subscription, billed every ${period} until you cancel.`) : null,
    table,
    h("p", { class: "muted" }, "You will confirm your phone number, then link the bank account to pay from."),
    h("div", { class: "actions" }, next, cancelButton(session)),
  );
}
