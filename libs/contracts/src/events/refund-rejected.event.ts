import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { RefundSnapshot } from "./event-snapshots.ts";

/** The merchant rejected the refund (`rejected`, final). Published by refunds. */
export const RefundRejectedEvent = defineEvent("refund.rejected", "refund", RefundSnapshot);
export type RefundRejectedEvent = z.infer<typeof RefundRejectedEvent>;
