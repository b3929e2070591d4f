import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { RefundSnapshot } from "./event-snapshots.ts";

/** The refund transfer failed (`failed`, final). Published by refunds. */
export const RefundFailedEvent = defineEvent("refund.failed", "refund", RefundSnapshot);
export type RefundFailedEvent = z.infer<typeof RefundFailedEvent>;
