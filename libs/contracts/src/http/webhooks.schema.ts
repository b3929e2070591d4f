import { z } from "zod";
import { EVENT_TYPES } from "../events/index.ts";

/** Events API, webhook endpoints and test events (docs/api-notes.md, Events and webhooks). */

/**
 * What merchants can receive: the domain events of the catalogue, plus
 * `webhook_endpoint.disabled`, which the webhooks service itself writes when it gives up on an
 * endpoint that failed for days.
 */
export const WEBHOOK_EVENT_TYPES: readonly string[] = [...EVENT_TYPES, "webhook_endpoint.disabled"];
const GROUPS = new Set(WEBHOOK_EVENT_TYPES.map((type) => type.slice(0, type.indexOf("."))));

/** `*`, a type of the catalogue, or `<group>.*` (`refund.*`). */
export const EventTypePattern = z
  .string()
  .max(64)
  .refine((p) => p === "*" || WEBHOOK_EVENT_TYPES.includes(p) || (p.endsWith(".*") && GROUPS.has(p.slice(0, -2))), {
    message: "must be *, an event type or <group>.* (refund.*)",
  });

/** The event object merchants see: never the owning merchant or the aggregate's internals. */
export const WebhookEvent = z.object({
  id: z.string(),
  type: z.string(),
  created_at: z.string(),
  livemode: z.boolean(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
export type WebhookEvent = z.infer<typeof WebhookEvent>;

const EVENT_ID_PATTERN = /^evt_[0-9a-f]{32}$/;
const Limit = z.coerce.number().int().min(1).max(100).default(20);

export const EventListQuery = z.object({
  type: EventTypePattern.optional(),
  /** Only events about this checkout (`chk_…`), transaction (`sc-…`) or refund (`rfd_…`). */
  about: z.string().min(1).max(64).optional(),
  limit: Limit,
  starting_after: z.string().regex(EVENT_ID_PATTERN, "must be an event id").optional(),
});
export const EventListResponse = z.object({ data: z.array(WebhookEvent), has_more: z.boolean() });
export const EventIdParam = z.object({ id: z.string().min(1).max(64) });
export const RedeliverAnswer = z.object({ id: z.string(), webhook_endpoints: z.array(z.string()) });

const Url = z
  .string()
  .max(2048)
  .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), { message: "must be an absolute http(s) URL" });
const EnabledEvents = z.array(EventTypePattern).min(1).max(64);

export const WebhookEndpointStatus = z.enum(["enabled", "disabled"]);

export const WebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  enabled_events: z.array(z.string()),
  description: z.string().nullable(),
  status: WebhookEndpointStatus,
  livemode: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;
/** Create and rotate_secret answer the secret, the only two times it is shown. */
export const WebhookEndpointWithSecret = WebhookEndpoint.extend({ secret: z.string() });

export const CreateWebhookEndpointBody = z.object({
  url: Url,
  enabled_events: EnabledEvents,
  description: z.string().max(1000).optional(),
});
export const UpdateWebhookEndpointBody = z.object({
  url: Url.optional(),
  enabled_events: EnabledEvents.optional(),
  description: z.string().max(1000).nullable().optional(),
  status: WebhookEndpointStatus.optional(),
});
export const WebhookEndpointIdParam = z.object({ id: z.string().min(1).max(64) });
export const WebhookEndpointListQuery = z.object({ limit: Limit });
export const WebhookEndpointListResponse = z.object({ data: z.array(WebhookEndpoint), has_more: z.boolean() });
export const DeletedWebhookEndpoint = z.object({ id: z.string(), deleted: z.literal(true) });

/** One delivery attempt, as `GET /webhook_endpoints/{id}/deliveries` lists it. */
export const DeliveryAttempt = z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  attempt: z.number().int(),
  status: z.enum(["succeeded", "failed"]),
  http_status: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
  response_body: z.string().nullable(),
  attempted_at: z.string(),
  /** When the next try is due; null when delivered or given up. */
  next_retry_at: z.string().nullable(),
});
export const DeliveryListQuery = z.object({ limit: Limit, starting_after: z.string().min(1).max(200).optional() });
export const DeliveryListResponse = z.object({ data: z.array(DeliveryAttempt), has_more: z.boolean() });

export const TestEventBody = z.object({
  type: z.string().refine((t) => WEBHOOK_EVENT_TYPES.includes(t), { message: "must be an event type of the catalogue" }),
});
