import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { RefundSnapshot } from "./event-snapshots.ts";

/** A consumer asked for a refund: the record is `pending`. Published by refunds. */
export const RefundRequestedEvent = defineEvent("refund.requested", "refund", RefundSnapshot);
export type RefundRequestedEvent = z.infer<typeof RefundRequestedEvent>;
