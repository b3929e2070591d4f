import { getEventOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getEvent } from "../../domain/get-event.use-case.ts";
import type { WebhooksDeps } from "./deps.ts";

export const getEventHandler = (deps: WebhooksDeps) => handle(getEventOp, (payload, ctx) => getEvent(deps, ctx.principal, payload));
