import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { SubscriptionSnapshot } from "./event-snapshots.ts";

/**
 * The merchant changed the subscription's amount: `amount`, `previous_amount`, and
 * `amount_effective_at`, the first renewal charged the new amount (at least 10 days after the change).
 */
export const SubscriptionUpdatedEvent = defineEvent("subscription.updated", "subscription", SubscriptionSnapshot);
export type SubscriptionUpdatedEvent = z.infer<typeof SubscriptionUpdatedEvent>;
