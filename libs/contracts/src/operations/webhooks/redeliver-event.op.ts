import { EventIdParam, RedeliverAnswer } from "../../http/webhooks.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Sends one of the merchant's events again to every enabled endpoint that takes its type. */
export const redeliverEventOp = defineOperation("webhooks.redeliverEvent", EventIdParam, RedeliverAnswer);
