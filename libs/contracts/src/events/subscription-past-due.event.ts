import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { SubscriptionSnapshot } from "./event-snapshots.ts";

/** A renewal charge failed; it will be retried. Published by the owner of subscriptions (billing). */
export const SubscriptionPastDueEvent = defineEvent("subscription.past_due", "subscription", SubscriptionSnapshot);
export type SubscriptionPastDueEvent = z.infer<typeof SubscriptionPastDueEvent>;
