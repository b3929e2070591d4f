import { listDeliveriesOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listDeliveries } from "../../domain/list-deliveries.use-case.ts";
import type { WebhooksDeps } from "./deps.ts";

export const listDeliveriesHandler = (deps: WebhooksDeps) => handle(listDeliveriesOp, (payload, ctx) => listDeliveries(deps, ctx.principal, payload));
