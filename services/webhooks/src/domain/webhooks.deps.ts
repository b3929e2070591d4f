import type { Logger, SecretBox } from "@payrail/runtime";
import type { DeliveryStats } from "./delivery-stats.ts";
import type { DeliveriesPort } from "./ports/deliveries.port.ts";
import type { EndpointQuotaPort } from "./ports/endpoint-quota.port.ts";
import type { EndpointsPort } from "./ports/endpoints.port.ts";
import type { EventsPort } from "./ports/events.port.ts";
import type { UrlGuardPort, UrlRules } from "./ports/url-guard.port.ts";
import type { WebhookSenderPort } from "./ports/webhook-sender.port.ts";

/** Delivery timing (docs/api-notes.md, Events and webhooks), configurable so tests run in seconds. */
export interface DeliveryPolicy {
  /** Waits between attempts after each failure; its length is the number of retries. */
  retryScheduleMs: readonly number[];
  /** One attempt's time limit. */
  timeoutMs: number;
  /** An endpoint failing without a success this long is disabled. */
  disableAfterMs: number;
  /** How long a worker's claim on a delivery lasts unrenewed; after a crash the delivery is due again then. */
  leaseMs: number;
}

/** What the webhooks use cases need. */
export interface WebhooksDeps {
  events: EventsPort;
  endpoints: EndpointsPort;
  /** Endpoints per merchant, counted so the limit holds under races. */
  quotas: EndpointQuotaPort;
  deliveries: DeliveriesPort;
  sender: WebhookSenderPort;
  urlGuard: UrlGuardPort;
  /** Seals endpoint secrets at rest (SECRETS_KEY). */
  secretBox: SecretBox;
  /** Whether this deployment is live: https to public addresses only, and the events' livemode. */
  livemode: boolean;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: sandbox endpoints may be on loopback or private addresses. */
  allowPrivateUrls: boolean;
  policy: DeliveryPolicy;
  /** Counts each attempt's outcome for /metrics. */
  stats: DeliveryStats;
  /** Told after a write that stored events (audit entries), so the relay publishes them at once. */
  outbox: { written(): void };
  /** Told when deliveries were created, so the worker looks at once. */
  deliveriesCreated(): void;
  logger: Logger;
  now(): Date;
}

/**
 * The URL rules in force: live mode takes https to public addresses only (WEBHOOK_ALLOW_PRIVATE_URLS
 * does not loosen it); the sandbox takes http too, and loopback or private addresses only when
 * allowed. Applied at registration and again on every connection.
 */
export function urlRules(deps: Pick<WebhooksDeps, "livemode" | "allowPrivateUrls">, endpointLivemode = deps.livemode): UrlRules {
  return { httpsOnly: endpointLivemode, publicOnly: endpointLivemode || !deps.allowPrivateUrls };
}
