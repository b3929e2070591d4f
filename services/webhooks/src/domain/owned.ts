import { AppError } from "@payrail/contracts";
import { EVENT_RETENTION_MS, type EventDoc } from "./webhook-event.entity.ts";
import { ENDPOINT_ID, type EndpointDoc } from "./webhook-endpoint.entity.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/*
 * Another merchant's event or endpoint is as absent as an unknown one (docs/api-notes.md, Answers and errors: 404, never
 * revealing another tenant's ids).
 */

/** The merchant's endpoint, or `resource_missing`. */
export async function endpointOf(deps: Pick<WebhooksDeps, "endpoints">, merchantId: string, endpointId: string): Promise<EndpointDoc> {
  const endpoint = ENDPOINT_ID.test(endpointId) ? await deps.endpoints.find(endpointId) : null;
  if (endpoint?.merchantId !== merchantId) throw new AppError("resource_missing", `no webhook endpoint ${endpointId}`, { param: "id" });
  return endpoint;
}

/** The merchant's event of the last 30 days, or `resource_missing`. */
export async function eventOf(deps: Pick<WebhooksDeps, "events" | "now">, merchantId: string, eventId: string): Promise<EventDoc> {
  const event = /^evt_[0-9a-f]{32}$/.test(eventId) ? await deps.events.find(eventId) : null;
  if (event?.merchantId !== merchantId || event.createdAt < retentionStart(deps.now())) {
    throw new AppError("resource_missing", `no event ${eventId}`, { param: "id" });
  }
  return event;
}

export const retentionStart = (now: Date) => new Date(now.getTime() - EVENT_RETENTION_MS).toISOString();
