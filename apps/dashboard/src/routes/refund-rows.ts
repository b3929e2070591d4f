import type { RefundRecord } from "@payrail/contracts";
import type { FastifyReply } from "fastify";
import { canChange, type DashboardUser } from "../dashboard-session.ts";
import { dataTable } from "../data-table.ts";
import { badge, money, when } from "../format.ts";
import { html, type Html } from "@payrail/web";
import { csrfField } from "../layout.ts";
import { settleButton } from "./sandbox-settle.routes.ts";

/** What a refund in this state may be asked to do next (the refunds service decides for real). */
function actionsFor(reply: FastifyReply, refund: RefundRecord, sandbox: boolean): Html {
  const post = (action: string, label: string, style = "") =>
    html`<form class="inline" method="post" action="/dashboard/refunds/${refund.id}/${action}">${csrfField(reply)}<button type="submit"${style ? html` class="${style}"` : ""}>${label}</button></form>`;
  if (refund.status === "pending") return html`<div class="actions">${post("approve", "Approve")}${post("reject", "Reject", "danger")}</div>`;
  if (refund.status === "approved" || refund.status === "failed") return html`<div class="actions">${post("payout", `Pay out ${money(refund.amount, refund.currency)}`)}</div>`;
  if (refund.status === "processing" && sandbox) return html`<div class="actions">${settleButton(reply, `/dashboard/refunds/${refund.id}/settle`)}</div>`;
  return html``;
}

/**
 * A paid refund whose payment the bank also returned: the consumer got the money twice, and only
 * the merchant can recover it, so the row says so in words (not by colour alone).
 */
function overReturned(refund: RefundRecord): Html {
  if (!refund.over_returned_at) return html``;
  return html` <span class="badge bad">paid twice: payment returned too</span> <span class="muted">${when(refund.over_returned_at)}</span>`;
}

/** A table of refunds; the action buttons only for users who may change things (and Settle only in the sandbox). */
export function refundRows(reply: FastifyReply, refunds: readonly RefundRecord[], user: DashboardUser | null, sandbox: boolean): Html {
  if (refunds.length === 0) return html`<p class="muted">No refunds.</p>`;
  const acts = user !== null && canChange(user);
  const columns = [{ label: "Refund" }, { label: "Amount", num: true }, { label: "Status" }, { label: "Reason" }, { label: "Requested" }, ...(acts ? [{ label: "Actions", actions: true }] : [])];
  return dataTable(
    "Refunds",
    columns,
    refunds.map((r) => [
      { content: html`${r.id}<br><span class="muted">transaction ${r.transaction_uuid}</span>`, className: "mono" },
      money(r.amount, r.currency),
      html`${badge(r.status)}${r.failure_code ? html` <span class="muted">${r.failure_code}</span>` : ""}${overReturned(r)}`,
      r.reason ?? "",
      when(r.created_at),
      ...(acts ? [actionsFor(reply, r, sandbox)] : []),
    ]),
  );
}
