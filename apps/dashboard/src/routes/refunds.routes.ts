import { decideRefundOp, initiateRefundTransferOp, listMerchantRefundsOp, RefundStatus } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { callService, html, type WebContext } from "@payrail/web";
import { requireDashboardUser } from "../dashboard-session.ts";
import { amountFields, amountFilters, AmountRangeQuery } from "../amount-range.ts";
import { apiWindow, DateRangeQuery, dateFields, exportLink } from "../date-range.ts";
import { queryOf } from "../form.ts";
import { definedFilters, nextPageLink } from "../paging.ts";
import { redirectDone, sendPage } from "../layout.ts";
import { refundRows } from "./refund-rows.ts";

const ListQuery = DateRangeQuery.extend({
  ...AmountRangeQuery.shape,
  status: z.union([z.literal(""), RefundStatus]).optional().transform((s) => s || undefined),
  starting_after: z.string().regex(/^rfd_[0-9a-f]{32}$/).optional(),
});

/** Refunds: the list by status; approve, reject, pay out (the refunds service's own rules and roles apply). */
export async function refundsPageRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  app.get("/dashboard/refunds", async (request, reply) => {
    const user = requireDashboardUser(request);
    const query = queryOf(request, ListQuery);
    const filters = definedFilters({ status: query.status, from: query.from, to: query.to, ...amountFilters(query) });
    const status = filters.status;
    const page = await callService(ctx, request, listMerchantRefundsOp, {
      limit: 25,
      ...definedFilters({ status: query.status, starting_after: query.starting_after }),
      ...apiWindow(query),
      ...amountFilters(query),
    });
    return sendPage(ctx, request, reply, {
      title: "Refunds",
      active: "/dashboard/refunds",
      body: html`<form class="filters" method="get" action="/dashboard/refunds">
          <div><label for="status">Status</label><select id="status" name="status"><option value="">Any</option>
          ${RefundStatus.options.map((s) => html`<option value="${s}"${s === status ? html` selected` : ""}>${s}</option>`)}</select></div>
          ${dateFields(query)}
          ${amountFields(query)}
          <button type="submit">Filter</button>
          ${exportLink("refunds.csv", "Export CSV", definedFilters({ from: query.from, to: query.to, ...amountFilters(query) }))}</form>
        <p class="muted">A payout sends the refund's amount back to the consumer's bank account; the amount still refundable of its transaction caps it. The export holds every refund requested in the dates and of the amounts chosen, whatever its status.</p>
        ${refundRows(reply, page.data, user, ctx.sandbox)}
        <nav class="pager" aria-label="Pages">${nextPageLink("/dashboard/refunds", filters, page)}</nav>`,
    });
  });

  app.post<{ Params: { id: string } }>("/dashboard/refunds/:id/approve", async (request, reply) => {
    requireDashboardUser(request);
    await callService(ctx, request, decideRefundOp, { id: request.params.id, status: "approved" });
    return redirectDone(reply, "/dashboard/refunds", "approved");
  });

  app.post<{ Params: { id: string } }>("/dashboard/refunds/:id/reject", async (request, reply) => {
    requireDashboardUser(request);
    await callService(ctx, request, decideRefundOp, { id: request.params.id, status: "rejected" });
    return redirectDone(reply, "/dashboard/refunds", "rejected");
  });

  app.post<{ Params: { id: string } }>("/dashboard/refunds/:id/payout", async (request, reply) => {
    requireDashboardUser(request);
    await callService(ctx, request, initiateRefundTransferOp, { id: request.params.id });
    return redirectDone(reply, "/dashboard/refunds", "payout");
  });
}
