import { TestEventBody, WebhookEvent } from "../../http/webhooks.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Sandbox: an event of that type with a sample object, delivered like any other. */
export const sendTestEventOp = defineOperation("webhooks.sendTestEvent", TestEventBody, WebhookEvent);
