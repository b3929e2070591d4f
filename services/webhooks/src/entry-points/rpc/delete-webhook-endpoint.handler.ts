import { deleteWebhookEndpointOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { deleteWebhookEndpoint } from "../../domain/delete-webhook-endpoint.use-case.ts";
import type { WebhooksDeps } from "./deps.ts";

export const deleteWebhookEndpointHandler = (deps: WebhooksDeps) => handle(deleteWebhookEndpointOp, (payload, ctx) => deleteWebhookEndpoint(deps, ctx, payload));
