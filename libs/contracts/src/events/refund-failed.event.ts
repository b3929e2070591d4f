import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { RefundSnapshot } from "./event-snapshots.ts";

/** The refund transfer failed (`failed`, with failure_code and failure_reason); the merchant may initiate again or the consumer ask again (issue 15), so it is not final. Published by refunds. */
export const RefundFailedEvent = defineEvent("refund.failed", "refund", RefundSnapshot);
export type RefundFailedEvent = z.infer<typeof RefundFailedEvent>;
