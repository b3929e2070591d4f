import { listWebhookEndpointsOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listWebhookEndpoints } from "../../domain/list-webhook-endpoints.use-case.ts";
import type { WebhooksDeps } from "./deps.ts";

export const listWebhookEndpointsHandler = (deps: WebhooksDeps) => handle(listWebhookEndpointsOp, (payload, ctx) => listWebhookEndpoints(deps, ctx.principal, payload));
