import { pingOp } from "@payrail/contracts";
import { handle, type HandlerEntry } from "@payrail/messaging";
import { createWebhookEndpointHandler } from "./create-webhook-endpoint.handler.ts";
import { deleteWebhookEndpointHandler } from "./delete-webhook-endpoint.handler.ts";
import type { WebhooksDeps } from "./deps.ts";
import { getEventHandler } from "./get-event.handler.ts";
import { getWebhookEndpointHandler } from "./get-webhook-endpoint.handler.ts";
import { listDeliveriesHandler } from "./list-deliveries.handler.ts";
import { listEventDeliveriesHandler } from "./list-event-deliveries.handler.ts";
import { listEventsHandler } from "./list-events.handler.ts";
import { listWebhookEndpointsHandler } from "./list-webhook-endpoints.handler.ts";
import { redeliverEventHandler } from "./redeliver-event.handler.ts";
import { rotateWebhookSecretHandler } from "./rotate-webhook-secret.handler.ts";
import { sendTestEventHandler } from "./send-test-event.handler.ts";
import { updateWebhookEndpointHandler } from "./update-webhook-endpoint.handler.ts";

/** The webhooks service's operations: its whole RPC surface in one list. */
export function webhooksHandlers(deps: WebhooksDeps): HandlerEntry[] {
  return [
    listEventsHandler(deps),
    getEventHandler(deps),
    redeliverEventHandler(deps),
    createWebhookEndpointHandler(deps),
    listWebhookEndpointsHandler(deps),
    getWebhookEndpointHandler(deps),
    updateWebhookEndpointHandler(deps),
    deleteWebhookEndpointHandler(deps),
    rotateWebhookSecretHandler(deps),
    listDeliveriesHandler(deps),
    listEventDeliveriesHandler(deps),
    sendTestEventHandler(deps),
    handle(pingOp("webhooks"), async () => {
      await deps.ping();
      return { service: "webhooks", ok: true as const };
    }),
  ];
}
