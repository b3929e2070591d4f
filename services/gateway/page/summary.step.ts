import { h, show } from "./dom.ts";
import { phoneStep } from "./phone.step.ts";
import { cancelButton, money, sandboxBanner, type Session } from "./session.ts";

const PLANS: Record<string, string> = { daily: "day", weekly: "week", monthly: "month", quarterly: "quarter", yearly: "year" };

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
      h("th", { scope: "row" }, item.quantity > 1 ? `${item.name} × ${item.quantity}` : item.name),
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
