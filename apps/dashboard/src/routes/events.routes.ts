import { listEventsOp, redeliverEventOp } from "@payrail/contracts";
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { callService, html, type Html, type WebContext } from "@payrail/web";
import { canChange, requireDashboardUser } from "../dashboard-session.ts";
import { queryOf } from "../form.ts";
import { definedFilters, nextPageLink } from "../paging.ts";
import { dataTable } from "../data-table.ts";
import { when } from "../format.ts";
import { subjectOf } from "../event-subject.ts";
import { csrfField, redirectDone, sendPage } from "../layout.ts";

const ListQuery = z.object({ type: z.string().trim().max(100).optional(), starting_after: z.string().regex(/^evt_[0-9a-f]{32}$/).optional() });

/** Redeliver: sends an event again to the merchant's enabled endpoints (the events page and a checkout's page). */
export function redeliverButton(reply: FastifyReply, eventId: string): Html {
  return html`<form class="inline" method="post" action="/dashboard/events/${eventId}/redeliver">${csrfField(reply)}<button class="secondary" type="submit">Redeliver</button></form>`;
}

/** Events of the last 30 days (newest first, by type), and redelivery to the enabled endpoints. */
export async function eventsPageRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  app.get("/dashboard/events", async (request, reply) => {
    const user = requireDashboardUser(request);
    const query = queryOf(request, ListQuery);
    const filters = definedFilters({ type: query.type });
    const type = filters.type;
    const page = await callService(ctx, request, listEventsOp, { limit: 25, ...filters, ...definedFilters({ starting_after: query.starting_after }) });
    const acts = canChange(user);
    return sendPage(ctx, request, reply, {
      title: "Events",
      active: "/dashboard/events",
      body: html`<form class="filters" method="get" action="/dashboard/events"><div><label for="type">Type</label>
          <input id="type" name="type" type="search" value="${type ?? ""}" placeholder="refund.* or transaction.completed"></div><button type="submit">Filter</button></form>
        ${page.data.length === 0 ? html`<p class="muted">No events.</p>` : dataTable(
          "Events",
          [{ label: "Event" }, { label: "Type" }, { label: "About" }, { label: "When" }, ...(acts ? [{ label: "Actions", actions: true }] : [])],
          page.data.map((e) => [
            { content: e.id, className: "mono" },
            e.type,
            { content: subjectOf(e.data.object), className: "mono" },
            when(e.created_at),
            ...(acts ? [redeliverButton(reply, e.id)] : []),
          ]),
        )}
        <nav class="pager" aria-label="Pages">${nextPageLink("/dashboard/events", filters, page)}</nav>`,
    });
  });

  app.post<{ Params: { id: string } }>("/dashboard/events/:id/redeliver", async (request, reply) => {
    requireDashboardUser(request);
    await callService(ctx, request, redeliverEventOp, { id: request.params.id });
    return redirectDone(reply, "/dashboard/events", "redelivered");
  });
}
