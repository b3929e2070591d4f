import { UpdateWebhookEndpointBody, WebhookEndpoint, WebhookEndpointIdParam } from "../../http/webhooks.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Changes an endpoint's url, events, description or status (enable / disable). */
export const updateWebhookEndpointOp = defineOperation(
  "webhooks.updateWebhookEndpoint",
  UpdateWebhookEndpointBody.extend(WebhookEndpointIdParam.shape),
  WebhookEndpoint,
);
