import { updateWebhookEndpointOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { updateWebhookEndpoint } from "../../domain/update-webhook-endpoint.use-case.ts";
import type { WebhooksDeps } from "./deps.ts";

export const updateWebhookEndpointHandler = (deps: WebhooksDeps) => handle(updateWebhookEndpointOp, (payload, ctx) => updateWebhookEndpoint(deps, ctx, payload));
