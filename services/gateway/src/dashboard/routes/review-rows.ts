import type { Review } from "@payrail/contracts";
import type { FastifyReply } from "fastify";
import { html, type Html } from "../../http/html.ts";
import { badge, money, when } from "../format.ts";
import { csrfField } from "../layout.ts";

const KIND = { first_charge: "First charge", renewal: "Renewal" } as const;

/** A table of reviews, each linking to its page (where owners and admins decide). */
export function reviewRows(reviews: readonly Review[]): Html {
  if (reviews.length === 0) return html`<p class="muted">No reviews.</p>`;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table><thead><tr><th scope="col">Review</th><th scope="col" class="num">Amount</th><th scope="col">Status</th>
    <th scope="col">Rules</th><th scope="col">Held</th><th scope="col">Expires</th></tr></thead><tbody>
    ${reviews.map(
      (r) => html`<tr><td><a class="mono" href="/dashboard/reviews/${r.id}">${r.id}</a><br><span class="muted">${KIND[r.kind]} of <span class="mono">${r.checkout_id}</span></span></td>
        <td class="num">${money(r.amount, r.currency)}</td><td>${badge(r.status)}</td><td>${r.rules.map((h) => h.rule).join(", ")}</td>
        <td>${when(r.opened_at)}</td><td>${r.status === "open" ? when(r.expires_at) : html`<span class="muted">—</span>`}</td></tr>`,
    )}
    </tbody></table></div>`;
}

/** Each rule that fired: why, and the facts it judged against their thresholds. */
export function ruleHits(review: Review): Html {
  const pairs = (values: Record<string, number>) => Object.entries(values).map(([k, v]) => html`<div><span class="mono">${k}</span>: ${String(v)}</div>`);
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Rules (scrolls sideways on narrow screens)"><table><thead><tr><th scope="col">Rule</th><th scope="col">Why it fired</th><th scope="col">Facts</th><th scope="col">Thresholds</th></tr></thead><tbody>
    ${review.rules.map((h) => html`<tr><td class="mono">${h.rule} v${String(h.version)}</td><td>${h.reason}</td><td>${pairs(h.facts)}</td><td>${pairs(h.thresholds)}</td></tr>`)}
    </tbody></table></div>`;
}

/** Approve and Cancel, for an open review and a user who may decide. */
export function reviewActions(reply: FastifyReply, review: Review): Html {
  const amount = money(review.amount, review.currency);
  return html`<div class="actions">
    <form class="inline" method="post" action="/dashboard/reviews/${review.id}/approve" data-confirm="${`Approve this debit? ${amount} is sent to the bank now.`}">${csrfField(reply)}<button type="submit">Approve</button></form>
    <form class="inline" method="post" action="/dashboard/reviews/${review.id}/cancel" data-confirm="Cancel this debit? Nothing is debited and the payment fails.">${csrfField(reply)}<button class="danger" type="submit">Cancel</button></form></div>`;
}
