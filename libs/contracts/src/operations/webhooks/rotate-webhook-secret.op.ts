import { WebhookEndpointIdParam, WebhookEndpointWithSecret } from "../../http/webhooks.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** A new signing secret, shown once; the previous one keeps signing alongside for 24 hours. */
export const rotateWebhookSecretOp = defineOperation("webhooks.rotateWebhookSecret", WebhookEndpointIdParam, WebhookEndpointWithSecret);
