import { listEventsOp, redeliverEventOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { GatewayContext } from "../../gateway-context.ts";
import { callService } from "../../http/call-service.ts";
import { canChange, requireDashboardUser } from "../dashboard-session.ts";
import { queryOf } from "../form.ts";
import { definedFilters, nextPageLink } from "../paging.ts";
import { when } from "../format.ts";
import { html } from "../../http/html.ts";
import { subjectOf } from "../event-subject.ts";
import { csrfField, redirectDone, sendPage } from "../layout.ts";

const ListQuery = z.object({ type: z.string().trim().max(100).optional(), starting_after: z.string().regex(/^evt_[0-9a-f]{32}$/).optional() });

/** Events of the last 30 days (newest first, by type), and redelivery to the enabled endpoints. */
export async function eventsPageRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
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
        ${page.data.length === 0 ? html`<p class="muted">No events.</p>` : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table><thead><tr><th scope="col">Event</th><th scope="col">Type</th><th scope="col">About</th><th scope="col">When</th>${acts ? html`<th scope="col">Actions</th>` : ""}</tr></thead><tbody>
        ${page.data.map(
          (e) => html`<tr><td class="mono">${e.id}</td><td>${e.type}</td><td class="mono">${subjectOf(e.data.object)}</td><td>${when(e.created_at)}</td>
            ${acts ? html`<td><form class="inline" method="post" action="/dashboard/events/${e.id}/redeliver">${csrfField(reply)}<button class="secondary" type="submit">Redeliver</button></form></td>` : ""}</tr>`,
        )}</tbody></table></div>`}
        <nav class="pager" aria-label="Pages">${nextPageLink("/dashboard/events", filters, page)}</nav>`,
    });
  });

  app.post<{ Params: { id: string } }>("/dashboard/events/:id/redeliver", async (request, reply) => {
    requireDashboardUser(request);
    await callService(ctx, request, redeliverEventOp, { id: request.params.id });
    return redirectDone(reply, "/dashboard/events", "redelivered");
  });
}
