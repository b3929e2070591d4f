import type { BalanceTransaction, Payout } from "@payrail/contracts";
import { html, type Html } from "@payrail/web";
import { dataTable } from "../data-table.ts";
import { badge, money, when } from "../format.ts";

/** What a balance transaction's `source` names, as a link where the dashboard has a page for it. */
function sourceOf(row: BalanceTransaction): Html {
  if (row.source.startsWith("po_")) return html`<a class="mono" href="/dashboard/payouts/${row.source}">${row.source}</a>`;
  return html`<span class="mono">${row.source}</span>`;
}

/** A table of balance transactions: the Balance page's list and a payout's reconciliation. */
export function balanceTransactionRows(rows: readonly BalanceTransaction[]): Html {
  if (rows.length === 0) return html`<p class="muted">No balance transactions.</p>`;
  return dataTable(
    "Balance transactions",
    [{ label: "Type" }, { label: "Amount", num: true }, { label: "Status" }, { label: "Source" }, { label: "Created" }, { label: "Available" }, { label: "Payout" }],
    rows.map((r) => [
      html`${r.type}<br><span class="muted mono">${r.id}</span>`,
      money(r.amount, r.currency.toUpperCase()),
      badge(r.status),
      sourceOf(r),
      when(r.created_at),
      when(r.available_at),
      r.payout_id ? html`<a class="mono" href="/dashboard/payouts/${r.payout_id}">${r.payout_id}</a>` : html`<span class="muted">—</span>`,
    ]),
  );
}

/** A table of payouts, each opening its reconciliation. */
export function payoutRows(payouts: readonly Payout[]): Html {
  if (payouts.length === 0) return html`<p class="muted">No payouts yet.</p>`;
  return dataTable(
    "Payouts",
    [{ label: "Payout" }, { label: "Amount", num: true }, { label: "Status" }, { label: "Day" }, { label: "Created" }],
    payouts.map((p) => [
      html`<a class="mono" href="/dashboard/payouts/${p.id}">${p.id}</a>`,
      money(p.amount, p.currency.toUpperCase()),
      html`${badge(p.status)}${p.failure_code ? html` <span class="muted">${p.failure_code}</span>` : ""}`,
      p.day,
      when(p.created_at),
    ]),
  );
}
