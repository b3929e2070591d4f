import type { Review } from "@payrail/contracts";
import type { FastifyReply } from "fastify";
import { html, type Html } from "@payrail/web";
import { dataTable } from "../data-table.ts";
import { badge, money, when } from "../format.ts";
import { csrfField } from "../layout.ts";

const KIND = { first_charge: "First charge", renewal: "Renewal" } as const;

/** A table of reviews, each linking to its page (where owners and admins decide). */
export function reviewRows(reviews: readonly Review[]): Html {
  if (reviews.length === 0) return html`<p class="muted">No reviews.</p>`;
  return dataTable(
    "Reviews",
    [{ label: "Review" }, { label: "Amount", num: true }, { label: "Status" }, { label: "Rules" }, { label: "Held" }, { label: "Expires" }],
    reviews.map((r) => [
      html`<a class="mono" href="/dashboard/reviews/${r.id}">${r.id}</a><br><span class="muted">${KIND[r.kind]} of <span class="mono">${r.checkout_id}</span></span>`,
      money(r.amount, r.currency),
      badge(r.status),
      r.rules.map((h) => h.rule).join(", "),
      when(r.opened_at),
      r.status === "open" ? when(r.expires_at) : html`<span class="muted">—</span>`,
    ]),
  );
}

/** Each rule that fired: why, and the facts it judged against their thresholds. */
export function ruleHits(review: Review): Html {
  const pairs = (values: Record<string, number>) => Object.entries(values).map(([k, v]) => html`<div><span class="mono">${k}</span>: ${String(v)}</div>`);
  return dataTable(
    "Rules",
    [{ label: "Rule" }, { label: "Why it fired" }, { label: "Facts" }, { label: "Thresholds" }],
    review.rules.map((h) => [{ content: `${h.rule} v${String(h.version)}`, className: "mono" }, h.reason, html`${pairs(h.facts)}`, html`${pairs(h.thresholds)}`]),
  );
}

/** Approve and Cancel, for an open review and a user who may decide. */
export function reviewActions(reply: FastifyReply, review: Review): Html {
  const amount = money(review.amount, review.currency);
  return html`<div class="actions">
    <form class="inline" method="post" action="/dashboard/reviews/${review.id}/approve" data-confirm="${`Approve this debit? ${amount} is sent to the bank now.`}">${csrfField(reply)}<button type="submit">Approve</button></form>
    <form class="inline" method="post" action="/dashboard/reviews/${review.id}/cancel" data-confirm="Cancel this debit? Nothing is debited and the payment fails.">${csrfField(reply)}<button class="danger" type="submit">Cancel</button></form></div>`;
}
