import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { RefundSnapshot } from "./event-snapshots.ts";

/** The merchant approved the refund (`approved`). Published by refunds. */
export const RefundApprovedEvent = defineEvent("refund.approved", "refund", RefundSnapshot);
export type RefundApprovedEvent = z.infer<typeof RefundApprovedEvent>;
