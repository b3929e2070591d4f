import { createWebhookEndpointOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { createWebhookEndpoint } from "../../domain/create-webhook-endpoint.use-case.ts";
import type { WebhooksDeps } from "./deps.ts";

export const createWebhookEndpointHandler = (deps: WebhooksDeps) => handle(createWebhookEndpointOp, (payload, ctx) => createWebhookEndpoint(deps, ctx, payload, ctx.callId));
