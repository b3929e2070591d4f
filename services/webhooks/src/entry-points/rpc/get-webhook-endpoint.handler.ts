import { getWebhookEndpointOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getWebhookEndpoint } from "../../domain/get-webhook-endpoint.use-case.ts";
import type { WebhooksDeps } from "./deps.ts";

export const getWebhookEndpointHandler = (deps: WebhooksDeps) => handle(getWebhookEndpointOp, (payload, ctx) => getWebhookEndpoint(deps, ctx.principal, payload));
