import { listEventDeliveriesOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listEventDeliveries } from "../../domain/list-event-deliveries.use-case.ts";
import type { WebhooksDeps } from "./deps.ts";

export const listEventDeliveriesHandler = (deps: WebhooksDeps) => handle(listEventDeliveriesOp, (payload, ctx) => listEventDeliveries(deps, ctx.principal, payload));
