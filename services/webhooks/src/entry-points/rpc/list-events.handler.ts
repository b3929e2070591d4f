import { listEventsOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listEvents } from "../../domain/list-events.use-case.ts";
import type { WebhooksDeps } from "./deps.ts";

export const listEventsHandler = (deps: WebhooksDeps) => handle(listEventsOp, (payload, ctx) => listEvents(deps, ctx.principal, payload));
