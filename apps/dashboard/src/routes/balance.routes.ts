import { BalanceTransactionId, BalanceTransactionType, centsToDecimal, getBalanceOp, getPayoutOp, listBalanceTransactionsOp, listPayoutsOp, PayoutId, type BalanceTransaction } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { callService, html, type Html, type WebContext } from "@payrail/web";
import { requireDashboardUser } from "../dashboard-session.ts";
import { amountFields, amountFilters, SignedAmountRangeQuery } from "../amount-range.ts";
import { apiWindow, DateRangeQuery, dateFields, exportLink } from "../date-range.ts";
import { queryOf } from "../form.ts";
import { definedFilters, nextPageLink } from "../paging.ts";
import { badge, money, when } from "../format.ts";
import { sendPage } from "../layout.ts";
import { balanceTransactionRows, payoutRows } from "./balance-transaction-rows.ts";

const ListQuery = DateRangeQuery.extend({
  ...SignedAmountRangeQuery.shape,
  type: z.union([z.literal(""), BalanceTransactionType]).optional().transform((t) => t || undefined),
  payout_id: PayoutId.optional(),
  starting_after: BalanceTransactionId.optional(),
});

/**
 * Balance and payouts (docs/api-notes.md, The merchant's books): the balance, the newest payouts,
 * and the balance transactions with the list's filters and cursor pages; the CSV button exports
 * what the filters select, every page of it.
 */
export async function balanceRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  app.get("/dashboard/balance", async (request, reply) => {
    requireDashboardUser(request);
    const query = queryOf(request, ListQuery);
    const filters = definedFilters({ type: query.type, payout_id: query.payout_id, from: query.from, to: query.to, ...amountFilters(query) });
    const listed = { ...definedFilters({ type: query.type, payout_id: query.payout_id }), ...apiWindow(query), ...amountFilters(query) };
    const [balance, payouts, page] = await Promise.all([
      callService(ctx, request, getBalanceOp, {}),
      callService(ctx, request, listPayoutsOp, { limit: 5 }),
      callService(ctx, request, listBalanceTransactionsOp, { limit: 25, ...listed, ...definedFilters({ starting_after: query.starting_after }) }),
    ]);
    const currency = balance.currency.toUpperCase();
    return sendPage(ctx, request, reply, {
      title: "Balance and payouts",
      active: "/dashboard/balance",
      body: html`<section class="card" aria-labelledby="balance"><h2 id="balance">Balance</h2><div class="grid">
          <div><div class="stat">${money(balance.available, currency)}</div><div class="stat-label">available: paid out at the next payout</div></div>
          <div><div class="stat">${money(balance.pending, currency)}</div><div class="stat-label">pending: settled debits not yet available</div></div></div>
          ${balance.available.startsWith("-") ? html`<p class="muted">A negative balance (a return after its money was paid out) is taken from the next payout.</p>` : ""}</section>
        <section class="card" aria-labelledby="payouts"><h2 id="payouts">Latest payouts</h2>
          <p class="muted">Each payout opens its reconciliation: the balance transactions its amount is made of.</p>
          ${payoutRows(payouts.data)}${payouts.has_more ? html`<p><a href="/dashboard/payouts">All payouts</a></p>` : ""}</section>
        <section class="card"><h2>Balance transactions</h2>
          <form class="filters" method="get" action="/dashboard/balance" role="search" aria-label="Filter balance transactions">
            <div><label for="type">Type</label><select id="type" name="type"><option value="">Any</option>
              ${BalanceTransactionType.options.map((t) => html`<option value="${t}"${t === query.type ? html` selected` : ""}>${t}</option>`)}</select></div>
            ${dateFields(query)}
            ${amountFields(query, true)}
            ${query.payout_id ? html`<input type="hidden" name="payout_id" value="${query.payout_id}">` : ""}
            <button type="submit">Filter</button>
            ${exportLink("balance_transactions.csv", "Export CSV", filters)}</form>
          ${query.payout_id ? html`<p>Only payout <a class="mono" href="/dashboard/payouts/${query.payout_id}">${query.payout_id}</a>.</p>` : ""}
          ${balanceTransactionRows(page.data)}
          <nav class="pager" aria-label="Pages">${query.starting_after ? html`<a href="/dashboard/balance?${new URLSearchParams(filters as Record<string, string>).toString()}">First page</a>` : ""}
            ${nextPageLink("/dashboard/balance", filters, page)}</nav></section>`,
    });
  });

  app.get("/dashboard/payouts", async (request, reply) => {
    requireDashboardUser(request);
    const query = queryOf(request, z.object({ starting_after: PayoutId.optional() }));
    const page = await callService(ctx, request, listPayoutsOp, { limit: 25, ...definedFilters({ starting_after: query.starting_after }) });
    return sendPage(ctx, request, reply, {
      title: "Payouts",
      active: "/dashboard/balance",
      body: html`<section class="card">${payoutRows(page.data)}
        <nav class="pager" aria-label="Pages">${query.starting_after ? html`<a href="/dashboard/payouts">First page</a>` : ""}${nextPageLink("/dashboard/payouts", {}, page)}</nav></section>`,
    });
  });

  app.get<{ Params: { id: string } }>("/dashboard/payouts/:id", async (request, reply) => {
    requireDashboardUser(request);
    const payout = await callService(ctx, request, getPayoutOp, { id: request.params.id });
    const rows = payout.balance_transactions;
    const currency = payout.currency.toUpperCase();
    return sendPage(ctx, request, reply, {
      title: `Payout ${payout.id}`,
      active: "/dashboard/balance",
      body: html`<section class="card"><dl class="facts">
          <dt>Amount</dt><dd>${money(payout.amount, currency)}</dd>
          <dt>Status</dt><dd>${badge(payout.status)}${payout.failure_code ? html` (${payout.failure_code}: ${payout.failure_reason ?? ""})` : ""}</dd>
          <dt>Day</dt><dd>${payout.day}</dd>
          <dt>Bank transfer</dt><dd class="mono">${payout.transfer_id ?? "— (not yet answered)"}</dd>
          <dt>Created</dt><dd>${when(payout.created_at)}</dd></dl></section>
        <section class="card" aria-labelledby="reconciliation"><h2 id="reconciliation">Reconciliation</h2>
          <p class="muted">The movements this payout sends to your bank, and its own payout row that takes them from the balance: match its amount against your bank statement.</p>
          ${rows.has_more ? "" : html`<p>${movementsSum(rows.data, currency)}</p>`}
          <p>${exportLink("balance_transactions.csv", "Export CSV", { payout_id: payout.id })}</p>
          ${balanceTransactionRows(rows.data)}
          ${rows.has_more ? html`<p><a href="/dashboard/balance?payout_id=${payout.id}">All of this payout's balance transactions</a></p>` : ""}</section>`,
    });
  });
}

/** A signed two-decimal amount ("-12.50") in cents. */
const signedCents = (amount: string) => (amount.startsWith("-") ? -1 : 1) * Number(amount.replace(/^-/, "").replace(".", ""));

/**
 * What a payout's movements add up to, by type, written out: the sum a finance person checks
 * against the payout's amount (its own `payout` row is the same amount taken from the balance).
 */
function movementsSum(rows: readonly BalanceTransaction[], currency: string): Html {
  const moved = rows.filter((r) => r.type !== "payout");
  const byType = new Map<string, number>();
  for (const r of moved) byType.set(r.type, (byType.get(r.type) ?? 0) + signedCents(r.amount));
  const total = moved.reduce((sum, r) => sum + signedCents(r.amount), 0);
  const parts = [...byType].map(([type, cents]) => `${type}s ${centsToDecimal(cents)}`).join(" + ");
  return html`<strong>${moved.length} movements: ${parts || "none"} = ${centsToDecimal(total)} ${currency}</strong>`;
}
