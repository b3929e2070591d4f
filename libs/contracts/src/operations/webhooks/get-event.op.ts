import { EventIdParam, WebhookEvent } from "../../http/webhooks.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** One event of the calling merchant; another merchant's, or one older than 30 days, is `resource_missing`. */
export const getEventOp = defineOperation("webhooks.getEvent", EventIdParam, WebhookEvent);
