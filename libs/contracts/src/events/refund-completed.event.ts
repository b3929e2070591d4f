import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { RefundSnapshot } from "./event-snapshots.ts";

/** The refund transfer settled: the money is back with the consumer (`completed`). Published by refunds. */
export const RefundCompletedEvent = defineEvent("refund.completed", "refund", RefundSnapshot);
export type RefundCompletedEvent = z.infer<typeof RefundCompletedEvent>;
