import { z } from "zod";
import { DeliveryAttempt, EventIdParam } from "../../http/webhooks.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** One event's delivery attempts to every endpoint, newest first (at most 100). Another merchant's event is 404. */
export const listEventDeliveriesOp = defineOperation(
  "webhooks.listEventDeliveries",
  EventIdParam,
  z.object({ data: z.array(DeliveryAttempt.extend({ endpoint_id: z.string() })) }),
);
