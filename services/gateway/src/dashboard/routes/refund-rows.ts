import type { RefundRecord } from "@payrail/contracts";
import type { FastifyReply } from "fastify";
import { canChange, type DashboardUser } from "../dashboard-session.ts";
import { badge, money, when } from "../format.ts";
import { html, type Html } from "../../http/html.ts";
import { csrfField } from "../layout.ts";

/** What a refund in this state may be asked to do next (the refunds service decides for real). */
function actionsFor(reply: FastifyReply, refund: RefundRecord): Html {
  const post = (action: string, label: string, style = "") =>
    html`<form class="inline" method="post" action="/dashboard/refunds/${refund.id}/${action}">${csrfField(reply)}<button type="submit"${style ? html` class="${style}"` : ""}>${label}</button></form>`;
  if (refund.status === "pending") return html`<div class="actions">${post("approve", "Approve")}${post("reject", "Reject", "danger")}</div>`;
  if (refund.status === "approved" || refund.status === "failed") return html`<div class="actions">${post("payout", `Pay out ${money(refund.amount, refund.currency)}`)}</div>`;
  return html``;
}

/** A table of refunds; the action buttons only for users who may change things. */
export function refundRows(reply: FastifyReply, refunds: readonly RefundRecord[], user: DashboardUser | null): Html {
  if (refunds.length === 0) return html`<p class="muted">No refunds.</p>`;
  const acts = user !== null && canChange(user);
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table><thead><tr><th scope="col">Refund</th><th scope="col" class="num">Amount</th><th scope="col">Status</th>
    <th scope="col">Reason</th><th scope="col">Requested</th>${acts ? html`<th scope="col">Actions</th>` : ""}</tr></thead><tbody>
    ${refunds.map(
      (r) => html`<tr><td class="mono">${r.id}<br><span class="muted">transaction ${r.transaction_uuid}</span></td><td class="num">${money(r.amount, r.currency)}</td>
        <td>${badge(r.status)}${r.failure_code ? html` <span class="muted">${r.failure_code}</span>` : ""}</td><td>${r.reason ?? ""}</td><td>${when(r.created_at)}</td>
        ${acts ? html`<td>${actionsFor(reply, r)}</td>` : ""}</tr>`,
    )}
    </tbody></table></div>`;
}
