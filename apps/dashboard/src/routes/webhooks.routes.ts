import {
  createWebhookEndpointOp,
  getWebhookEndpointOp,
  listDeliveriesOp,
  listWebhookEndpointsOp,
  rotateWebhookSecretOp,
  sendTestEventOp,
  updateWebhookEndpointOp,
  WEBHOOK_EVENT_TYPES,
} from "@payrail/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { callService, html, type Html, type WebContext } from "@payrail/web";
import { canChange, requireDashboardUser } from "../dashboard-session.ts";
import { formOf } from "../form.ts";
import { dataTable } from "../data-table.ts";
import { badge, when } from "../format.ts";
import { csrfField, redirectDone, sendPage } from "../layout.ts";

/** The form's events field: `*`, or types and `group.*` patterns separated by commas or spaces (the service checks each). */
const CreateForm = z.object({
  url: z.string().trim().min(1).max(2048),
  events: z.string().trim().max(2000).optional(),
  description: z.string().trim().max(1000).optional(),
});
const TestForm = z.object({ type: z.string().max(100) });

function secretShown(endpoint: { secret: string }, what: string): Html {
  return html`<div class="secret" role="status"><p><strong>${what}</strong> Copy the signing secret now: it is not shown again.</p><p><code id="endpoint-secret">${endpoint.secret}</code></p></div>`;
}

/** Webhook endpoints: create (secret shown once), disable/enable, rotate, an endpoint's deliveries. */
export async function webhooksPageRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  const page = async (request: FastifyRequest, reply: FastifyReply, shown?: Html) => {
    const user = requireDashboardUser(request);
    const endpoints = await callService(ctx, request, listWebhookEndpointsOp, { limit: 100 });
    const acts = canChange(user);
    return sendPage(ctx, request, reply, {
      title: "Webhook endpoints",
      active: "/dashboard/webhooks",
      body: html`${shown ?? ""}
        ${endpoints.data.length === 0 ? html`<p class="muted">No endpoints yet.</p>` : dataTable(
          "Webhook endpoints",
          [{ label: "URL" }, { label: "Events" }, { label: "Status" }, { label: "Created" }],
          endpoints.data.map((e) => [
            html`<a class="mono" href="/dashboard/webhooks/${e.id}">${e.url}</a>${e.description ? html`<br><span class="muted">${e.description}</span>` : ""}`,
            { content: e.enabled_events.join(", "), className: "mono" },
            badge(e.status),
            when(e.created_at),
          ]),
        )}
        ${acts ? html`<section class="card"><h2>Add an endpoint</h2><form method="post" action="/dashboard/webhooks">${csrfField(reply)}
          <label for="url">URL</label><input id="url" name="url" type="url" required placeholder="https://shop.example/hooks">
          <label for="events">Events</label><input id="events" name="events" type="text" value="*" aria-describedby="events-help">
          <p id="events-help" class="muted">* for all, or types such as refund.* transaction.completed, separated by spaces.</p>
          <label for="description">Description (optional)</label><input id="description" name="description" type="text">
          <p><button type="submit">Add endpoint</button></p></form></section>` : ""}
        ${acts && ctx.sandbox ? html`<section class="card"><h2>Send a test event</h2><form method="post" action="/dashboard/webhooks/test">${csrfField(reply)}
          <label for="type">Event type</label><select id="type" name="type">${WEBHOOK_EVENT_TYPES.map((t) => html`<option>${t}</option>`)}</select>
          <p><button class="secondary" type="submit">Send</button></p></form></section>` : ""}`,
    });
  };

  app.get("/dashboard/webhooks", (request, reply) => page(request, reply));

  app.post("/dashboard/webhooks", async (request, reply) => {
    requireDashboardUser(request);
    const form = formOf(request, CreateForm);
    const events = (form.events ?? "*").split(/[\s,]+/).filter(Boolean);
    const created = await callService(ctx, request, createWebhookEndpointOp, {
      url: form.url,
      enabled_events: events.length > 0 ? events : ["*"],
      ...(form.description ? { description: form.description } : {}),
    });
    return page(request, reply, secretShown(created, `Endpoint ${created.url} added.`));
  });

  app.post("/dashboard/webhooks/test", async (request, reply) => {
    requireDashboardUser(request);
    await callService(ctx, request, sendTestEventOp, { type: formOf(request, TestForm).type });
    return redirectDone(reply, "/dashboard/events", "redelivered");
  });

  app.get<{ Params: { id: string } }>("/dashboard/webhooks/:id", async (request, reply) => {
    const user = requireDashboardUser(request);
    const [endpoint, deliveries] = await Promise.all([
      callService(ctx, request, getWebhookEndpointOp, { id: request.params.id }),
      callService(ctx, request, listDeliveriesOp, { id: request.params.id, limit: 50 }),
    ]);
    const acts = canChange(user);
    const post = (action: string, label: string, style = "secondary") =>
      html`<form class="inline" method="post" action="/dashboard/webhooks/${endpoint.id}/${action}">${csrfField(reply)}<button class="${style}" type="submit">${label}</button></form>`;
    return sendPage(ctx, request, reply, {
      title: "Webhook endpoint",
      active: "/dashboard/webhooks",
      body: html`<section class="card"><dl class="facts"><dt>URL</dt><dd class="mono">${endpoint.url}</dd><dt>Status</dt><dd>${badge(endpoint.status)}</dd>
          <dt>Events</dt><dd class="mono">${endpoint.enabled_events.join(", ")}</dd><dt>Created</dt><dd>${when(endpoint.created_at)}</dd></dl>
          ${acts ? html`<div class="actions">${endpoint.status === "enabled" ? post("disable", "Disable", "danger") : post("enable", "Enable")}${post("rotate", "Rotate secret")}</div>` : ""}</section>
        <h2>Deliveries</h2>
        ${deliveries.data.length === 0 ? html`<p class="muted">No delivery attempts yet.</p>` : dataTable(
          "Deliveries",
          [{ label: "Event" }, { label: "Attempt" }, { label: "Result" }, { label: "HTTP", num: true }, { label: "ms", num: true }, { label: "When" }, { label: "Next retry" }],
          deliveries.data.map((d) => [
            html`<span class="mono">${d.event_id}</span><br><span class="muted">${d.event_type}</span>`,
            d.attempt,
            badge(d.status),
            d.http_status ?? "—",
            d.duration_ms,
            when(d.attempted_at),
            when(d.next_retry_at),
          ]),
        )}
        <p>Send an event again from <a href="/dashboard/events">Events</a>.</p>`,
    });
  });

  for (const [action, status] of [
    ["disable", "disabled"],
    ["enable", "enabled"],
  ] as const) {
    app.post<{ Params: { id: string } }>(`/dashboard/webhooks/:id/${action}`, async (request, reply) => {
      requireDashboardUser(request);
      await callService(ctx, request, updateWebhookEndpointOp, { id: request.params.id, status });
      return redirectDone(reply, `/dashboard/webhooks/${encodeURIComponent(request.params.id)}`, status);
    });
  }

  app.post<{ Params: { id: string } }>("/dashboard/webhooks/:id/rotate", async (request, reply) => {
    requireDashboardUser(request);
    const rotated = await callService(ctx, request, rotateWebhookSecretOp, { id: request.params.id });
    return page(request, reply, secretShown(rotated, `New secret for ${rotated.url}; the old one keeps signing for 24 hours.`));
  });
}
