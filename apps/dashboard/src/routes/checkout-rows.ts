import type { CheckoutView } from "@payrail/contracts";
import { badge, money, when } from "../format.ts";
import { html, type Html } from "@payrail/web";
import { dataTable } from "../data-table.ts";

/** The amounts object as the checkout was created (docs/api-notes.md, The checkout: every key as sent). */
export function amountsOf(checkout: CheckoutView): { total?: string | number; currency?: string } {
  const amounts = checkout.amounts;
  return typeof amounts === "object" && amounts !== null ? (amounts as { total?: string | number; currency?: string }) : {};
}

/** A table of checkouts, as the list and the overview show them. */
export function checkoutRows(checkouts: readonly CheckoutView[]): Html {
  if (checkouts.length === 0) return html`<p class="muted">No checkouts.</p>`;
  const columns = [{ label: "Checkout" }, { label: "Your id" }, { label: "Total", num: true }, { label: "Status" }, { label: "Created" }];
  return dataTable(
    "Checkouts",
    columns,
    checkouts.map((c) => {
      const amounts = amountsOf(c);
      return [
        html`<a class="mono" href="/dashboard/checkouts/${c.id}">${c.id}</a>${c.is_subscription === true ? html` <span class="badge">subscription</span>` : ""}`,
        { content: String(c.merchant_checkout_id ?? ""), className: "mono" },
        money(amounts.total, amounts.currency),
        badge(c.status),
        when(c.created_at),
      ];
    }),
  );
}
