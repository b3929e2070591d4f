import { EventListQuery, EventListResponse } from "../../http/webhooks.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Events API (docs/api-notes.md, Events and webhooks): the calling merchant's events of the last 30 days, newest first. */
export const listEventsOp = defineOperation("webhooks.listEvents", EventListQuery, EventListResponse);
