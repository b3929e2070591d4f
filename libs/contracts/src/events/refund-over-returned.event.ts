import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { RefundSnapshot } from "./event-snapshots.ts";

/**
 * A refund was paid back to the consumer and its payment was also returned by their bank: the
 * consumer has had the refunded money twice (`over_returned_at` set). Either order: the return
 * after the payout, or a payout that completes after the return. Published by refunds, once per
 * refund.
 */
export const RefundOverReturnedEvent = defineEvent("refund.over_returned", "refund", RefundSnapshot);
export type RefundOverReturnedEvent = z.infer<typeof RefundOverReturnedEvent>;
