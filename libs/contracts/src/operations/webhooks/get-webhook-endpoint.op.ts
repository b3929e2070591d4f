import { WebhookEndpoint, WebhookEndpointIdParam } from "../../http/webhooks.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** One endpoint of the calling merchant (another's is `resource_missing`). */
export const getWebhookEndpointOp = defineOperation("webhooks.getWebhookEndpoint", WebhookEndpointIdParam, WebhookEndpoint);
