import { CreateWebhookEndpointBody, WebhookEndpointWithSecret } from "../../http/webhooks.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Registers an endpoint; the answer carries its signing secret, shown this once. */
export const createWebhookEndpointOp = defineOperation("webhooks.createWebhookEndpoint", CreateWebhookEndpointBody, WebhookEndpointWithSecret);
