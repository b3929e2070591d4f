import { redeliverEventOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { redeliverEvent } from "../../domain/redeliver-event.use-case.ts";
import type { WebhooksDeps } from "./deps.ts";

export const redeliverEventHandler = (deps: WebhooksDeps) => handle(redeliverEventOp, (payload, ctx) => redeliverEvent(deps, ctx, payload));
