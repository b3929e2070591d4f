import { AuditAction, listAuditLogOp, type AuditEntry } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { callService, html, type WebContext } from "@payrail/web";
import { requireDashboardUser } from "../dashboard-session.ts";
import { queryOf } from "../form.ts";
import { definedFilters, nextPageLink } from "../paging.ts";
import { dataTable } from "../data-table.ts";
import { when } from "../format.ts";
import { sendPage } from "../layout.ts";

/** A date input's value: a day, or nothing (the form's empty field). */
const Day = z.union([z.literal(""), z.string().regex(/^\d{4}-\d{2}-\d{2}$/).refine((v) => !Number.isNaN(Date.parse(v)), "must be a real date")]).optional();

const ListQuery = z.object({
  action: z.union([z.literal(""), AuditAction]).optional(),
  from: Day,
  to: Day,
  starting_after: z.string().regex(/^aud_[0-9a-f]{32}$/).optional(),
});

const ACTOR_LABELS: Record<AuditEntry["actor"]["type"], string> = { api_key: "API key", user: "Dashboard user", operator: "Operator", admin: "Admin" };

/** The day after `day` (YYYY-MM-DD): a person's "to" includes its day, the API's `to` is exclusive. */
function dayAfter(day: string): string {
  return new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * The audit log: who changed what, from where, newest first, with the action and a date range
 * (both ends inclusive, UTC days) as filters and cursor pages. Every user reads it, viewers
 * included: it holds no secret.
 */
export async function auditLogRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  app.get("/dashboard/audit-log", async (request, reply) => {
    requireDashboardUser(request);
    const query = queryOf(request, ListQuery);
    const filters = definedFilters({ action: query.action, from: query.from, to: query.to });
    const page = await callService(ctx, request, listAuditLogOp, {
      limit: 25,
      ...(filters.action ? { action: filters.action as AuditAction } : {}),
      ...definedFilters({ from: filters.from, to: filters.to ? dayAfter(filters.to) : undefined, starting_after: query.starting_after }),
    });
    return sendPage(ctx, request, reply, {
      title: "Audit log",
      active: "/dashboard/audit-log",
      body: html`<form class="filters" method="get" action="/dashboard/audit-log" role="search">
          <div><label for="action">Action</label><select id="action" name="action"><option value="">Any</option>
            ${AuditAction.options.map((a) => html`<option value="${a}"${a === filters.action ? html` selected` : ""}>${a}</option>`)}</select></div>
          <div><label for="from">From (UTC day)</label><input id="from" name="from" type="date" value="${filters.from ?? ""}"></div>
          <div><label for="to">To (UTC day, included)</label><input id="to" name="to" type="date" value="${filters.to ?? ""}"></div>
          <button type="submit">Filter</button></form>
        ${page.data.length === 0
          ? html`<p class="muted">No entries.</p>`
          : dataTable(
              "Audit log",
              [{ label: "When" }, { label: "Action" }, { label: "Object" }, { label: "Who" }, { label: "Address" }],
              page.data.map((e) => [
                when(e.created_at),
                e.action,
                { content: `${e.object.type} ${e.object.id}`, className: "mono" },
                html`${ACTOR_LABELS[e.actor.type]} <span class="mono">${e.actor.id}</span>`,
                { content: e.ip_address ?? "—", className: "mono" },
              ]),
            )}
        <nav class="pager" aria-label="Pages">${query.starting_after ? html`<a href="/dashboard/audit-log">First page</a>` : ""}
          ${nextPageLink("/dashboard/audit-log", filters, page)}</nav>`,
    });
  });
}
