import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { SubscriptionSnapshot } from "./event-snapshots.ts";

/**
 * A renewal is coming (as Stripe's `invoice.upcoming`): sent once per period, `NOTICE_DAYS_BEFORE`
 * days before it (10 when its amount differs from the previous charge's). `upcoming_charge`:
 * `{amount, previous_amount, charge_at, period}`. The consumer is told by an `upcoming_charge` notice.
 */
export const SubscriptionUpcomingEvent = defineEvent("subscription.upcoming", "subscription", SubscriptionSnapshot);
export type SubscriptionUpcomingEvent = z.infer<typeof SubscriptionUpcomingEvent>;
