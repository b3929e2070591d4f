import { sendTestEventOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { sendTestEvent } from "../../domain/send-test-event.use-case.ts";
import type { WebhooksDeps } from "./deps.ts";

export const sendTestEventHandler = (deps: WebhooksDeps) => handle(sendTestEventOp, (payload, ctx) => sendTestEvent(deps, ctx, payload));
