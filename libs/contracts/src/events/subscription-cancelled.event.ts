import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { SubscriptionSnapshot } from "./event-snapshots.ts";

/** The consumer cancelled the subscription: nothing more is charged. Published by the owner of subscriptions. */
export const SubscriptionCancelledEvent = defineEvent("subscription.cancelled", "subscription", SubscriptionSnapshot);
export type SubscriptionCancelledEvent = z.infer<typeof SubscriptionCancelledEvent>;
