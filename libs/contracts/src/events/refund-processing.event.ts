import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { RefundSnapshot } from "./event-snapshots.ts";

/** The refund transfer started (`processing`). Published by refunds. */
export const RefundProcessingEvent = defineEvent("refund.processing", "refund", RefundSnapshot);
export type RefundProcessingEvent = z.infer<typeof RefundProcessingEvent>;
