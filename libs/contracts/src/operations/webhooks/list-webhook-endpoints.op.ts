import { WebhookEndpointListQuery, WebhookEndpointListResponse } from "../../http/webhooks.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The calling merchant's endpoints, newest first (never their secrets). */
export const listWebhookEndpointsOp = defineOperation("webhooks.listWebhookEndpoints", WebhookEndpointListQuery, WebhookEndpointListResponse);
