import { DeletedWebhookEndpoint, WebhookEndpointIdParam } from "../../http/webhooks.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Removes an endpoint; its pending deliveries are dropped. */
export const deleteWebhookEndpointOp = defineOperation("webhooks.deleteWebhookEndpoint", WebhookEndpointIdParam, DeletedWebhookEndpoint);
