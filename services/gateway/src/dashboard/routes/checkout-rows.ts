import type { CheckoutView } from "@payrail/contracts";
import { badge, money, when } from "../format.ts";
import { html, type Html } from "../../http/html.ts";

/** The amounts object as the checkout was created (docs/api-notes.md, The checkout: every key as sent). */
export function amountsOf(checkout: CheckoutView): { total?: string | number; currency?: string } {
  const amounts = checkout.amounts;
  return typeof amounts === "object" && amounts !== null ? (amounts as { total?: string | number; currency?: string }) : {};
}

/** A table of checkouts, as the list and the overview show them. */
export function checkoutRows(checkouts: readonly CheckoutView[]): Html {
  if (checkouts.length === 0) return html`<p class="muted">No checkouts.</p>`;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table><thead><tr><th scope="col">Checkout</th><th scope="col">Your id</th><th scope="col" class="num">Total</th>
    <th scope="col">Status</th><th scope="col">Created</th></tr></thead><tbody>
    ${checkouts.map((c) => {
      const amounts = amountsOf(c);
      return html`<tr><td><a class="mono" href="/dashboard/checkouts/${c.id}">${c.id}</a>${c.is_subscription === true ? html` <span class="badge">subscription</span>` : ""}</td>
        <td class="mono">${String(c.merchant_checkout_id ?? "")}</td><td class="num">${money(amounts.total, amounts.currency)}</td>
        <td>${badge(c.status)}</td><td>${when(c.created_at)}</td></tr>`;
    })}
    </tbody></table></div>`;
}
