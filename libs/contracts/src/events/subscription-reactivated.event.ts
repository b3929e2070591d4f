import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { SubscriptionSnapshot } from "./event-snapshots.ts";

/** An `unpaid` subscription is `active` again: the consumer linked another bank account. Published by payments. */
export const SubscriptionReactivatedEvent = defineEvent("subscription.reactivated", "subscription", SubscriptionSnapshot);
export type SubscriptionReactivatedEvent = z.infer<typeof SubscriptionReactivatedEvent>;
