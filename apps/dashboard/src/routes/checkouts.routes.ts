import { byCodeUnit, CheckoutStatus, getCheckoutOp, listCheckoutsOp, listEventDeliveriesOp, listEventsOp, listMerchantRefundsOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { callService, html, type WebContext } from "@payrail/web";
import { canChange, requireDashboardUser } from "../dashboard-session.ts";
import { amountFields, amountFilters, AmountRangeQuery } from "../amount-range.ts";
import { apiWindow, DateRangeQuery, dateFields, exportLink } from "../date-range.ts";
import { queryOf } from "../form.ts";
import { definedFilters, nextPageLink } from "../paging.ts";
import { badge, money, when } from "../format.ts";
import { sendPage } from "../layout.ts";
import { dataTable } from "../data-table.ts";
import { redeliverButton } from "./events.routes.ts";
import { settleButton } from "./sandbox-settle.routes.ts";
import { amountsOf, checkoutRows } from "./checkout-rows.ts";
import { checkoutNotices, noticeRows } from "./notice-rows.ts";
import { checkoutMandate, customerFacts } from "./customer-facts.ts";
import { refundRows } from "./refund-rows.ts";

const ListQuery = DateRangeQuery.extend({
  ...AmountRangeQuery.shape,
  q: z.string().trim().max(255).optional(),
  status: z.union([z.literal(""), CheckoutStatus]).optional().transform((s) => s || undefined),
  starting_after: z.string().regex(/^chk_[0-9a-f]{32}$/).optional(),
});
const CHECKOUT_ID = /^chk_[0-9a-f]{32}$/;

/** Checkouts: search by id or merchant_checkout_id, a status filter, cursor pages; one checkout's detail. */
export async function checkoutsRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  app.get("/dashboard/checkouts", async (request, reply) => {
    requireDashboardUser(request);
    const query = queryOf(request, ListQuery);
    if (query.q && CHECKOUT_ID.test(query.q)) return reply.redirect(`/dashboard/checkouts/${query.q}`, 303);
    // The page's own query (its links and export carry it); the API gets the window as it takes it.
    const filters = definedFilters({ status: query.status, from: query.from, to: query.to, ...amountFilters(query) });
    const status = filters.status;
    const page = await callService(ctx, request, listCheckoutsOp, {
      limit: 25,
      ...definedFilters({ status: query.status }),
      ...apiWindow(query),
      ...amountFilters(query),
      ...definedFilters({ merchant_checkout_id: query.q, starting_after: query.starting_after }),
    });
    const exported = definedFilters({ from: query.from, to: query.to, ...amountFilters(query) });
    return sendPage(ctx, request, reply, {
      title: "Checkouts",
      active: "/dashboard/checkouts",
      body: html`<form class="filters" method="get" action="/dashboard/checkouts" role="search">
          <div><label for="q">Checkout id or your id</label><input id="q" name="q" type="search" value="${query.q ?? ""}" placeholder="chk_… or order-1001"></div>
          <div><label for="status">Status</label><select id="status" name="status"><option value="">Any</option>
            ${CheckoutStatus.options.map((s) => html`<option value="${s}"${s === status ? html` selected` : ""}>${s}</option>`)}</select></div>
          ${dateFields(query)}
          ${amountFields(query)}
          <button type="submit">Search</button>
          ${exportLink("checkouts.csv", "Export CSV", exported)}</form>
        <p class="muted">The export holds every checkout created in the dates and of the totals chosen (all of them without either), whatever its status.</p>
        ${checkoutRows(page.data)}
        <nav class="pager" aria-label="Pages">${query.starting_after ? html`<a href="/dashboard/checkouts?${new URLSearchParams(filters as Record<string, string>).toString()}">First page</a>` : ""}
          ${nextPageLink("/dashboard/checkouts", filters, page)}</nav>`,
    });
  });

  app.get<{ Params: { id: string } }>("/dashboard/checkouts/:id", async (request, reply) => {
    const user = requireDashboardUser(request);
    const checkout = await callService(ctx, request, getCheckoutOp, { checkout_id: request.params.id });
    const transfer = checkout.transfer;
    // The events about the checkout and about its transaction (transfers, refunds, subscription).
    const subjects = [checkout.id, ...(transfer ? [transfer.transaction_uuid] : [])];
    const [refunds, notices, mandate, ...eventPages] = await Promise.all([
      transfer ? callService(ctx, request, listMerchantRefundsOp, { transaction_uuid: transfer.transaction_uuid, limit: 100 }).then((r) => r.data) : Promise.resolve([]),
      checkoutNotices(ctx, request, checkout.id),
      checkoutMandate(ctx, request, checkout),
      ...subjects.map((about) => callService(ctx, request, listEventsOp, { about, limit: 100 })),
    ]);
    const events = [...new Map(eventPages.flatMap((p) => p.data).map((e) => [e.id, e])).values()].sort((a, b) => byCodeUnit(b.created_at, a.created_at));
    // Each event's deliveries (the newest 20 events: a checkout rarely has more).
    const deliveries = await Promise.all(events.slice(0, 20).map((e) => callService(ctx, request, listEventDeliveriesOp, { id: e.id }).then((d) => d.data)));
    const deliveriesOf = new Map(events.slice(0, 20).map((e, i) => [e.id, deliveries[i] ?? []]));
    const acts = canChange(user);
    // What refunds may still take of this payment: its amount less every refund not rejected or failed (the refunds service's own rule).
    const toCents = (amount: number) => Math.round(amount * 100);
    const held = refunds.filter((r) => r.status !== "rejected" && r.status !== "failed").reduce((sum, r) => sum + toCents(r.amount), 0);
    const refundable = transfer && transfer.status === "completed" ? Math.max(0, toCents(transfer.amount) - held) / 100 : null;
    const amounts = amountsOf(checkout);
    const timeline = [
      { at: checkout.created_at, what: "Checkout created" },
      ...(transfer ? [{ at: transfer.initiated_at, what: `Transfer ${transfer.transaction_uuid} started (now ${transfer.status})` }] : []),
      ...refunds.map((r) => ({ at: r.created_at, what: `Refund ${r.id} of ${money(r.amount, r.currency)} requested (now ${r.status})` })),
      { at: checkout.updated_at, what: `Last change: status ${checkout.status}` },
    ].sort((a, b) => byCodeUnit(a.at, b.at));
    return sendPage(ctx, request, reply, {
      title: `Checkout ${checkout.id}`,
      active: "/dashboard/checkouts",
      body: html`<section class="card"><dl class="facts">
          <dt>Status</dt><dd>${badge(checkout.status)}</dd>
          <dt>Your id</dt><dd class="mono">${String(checkout.merchant_checkout_id ?? "")}</dd>
          <dt>Total</dt><dd>${money(amounts.total, amounts.currency)}</dd>
          <dt>Refunded</dt><dd>${money(checkout.amount_refunded, amounts.currency)}</dd>
          <dt>Still refundable</dt><dd>${refundable === null ? "— (not settled)" : money(refundable, amounts.currency)}</dd>
          ${checkout.is_subscription === true ? html`<dt>Subscription</dt><dd>${badge(checkout.subscription_status || "not started")} · next charge ${when(checkout.next_charge_at)}</dd>` : ""}
          <dt>Transfer</dt><dd>${transfer ? html`${badge(transfer.status)} <span class="mono">${transfer.transaction_uuid}</span>` : "none yet"}
            ${transfer && transfer.status === "pending" && acts && ctx.sandbox ? html`<div class="actions">${settleButton(reply, `/dashboard/transactions/${transfer.transaction_uuid}/settle`)}</div>` : ""}</dd>
          <dt>Created</dt><dd>${when(checkout.created_at)}</dd></dl></section>
        <section class="card" aria-labelledby="customer"><h2 id="customer">Customer</h2>${customerFacts(checkout, mandate, notices)}</section>
        <section class="card"><h2>Timeline</h2><ol>${timeline.map((t) => html`<li>${when(t.at)}: ${t.what}</li>`)}</ol></section>
        <section class="card"><h2>Events</h2>
          ${events.length === 0 ? html`<p class="muted">No events in the last 30 days.</p>` : dataTable(
            "Events",
            [{ label: "When" }, { label: "Event" }, { label: "Id" }, { label: "Deliveries" }, ...(acts ? [{ label: "Actions", actions: true }] : [])],
            events.map((e) => [
              when(e.created_at),
              e.type,
              { content: e.id, className: "mono" },
              html`${(deliveriesOf.get(e.id) ?? []).map((d) => html`<div><a class="mono" href="/dashboard/webhooks/${d.endpoint_id}">${d.endpoint_id}</a> #${d.attempt} ${badge(d.status)} ${d.http_status ?? ""}</div>`)}`,
              ...(acts ? [redeliverButton(reply, e.id)] : []),
            ]),
          )}
          <p class="muted">All of an endpoint's delivery attempts are on its page under <a href="/dashboard/webhooks">Webhooks</a>.</p></section>
        <section class="card"><h2>Notices to the consumer</h2>${noticeRows(notices)}</section>
        <section class="card"><h2>Refunds</h2>${refundRows(reply, refunds, request.dashboardUser, ctx.sandbox)}</section>`,
    });
  });
}
