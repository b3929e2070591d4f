import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { SubscriptionSnapshot } from "./event-snapshots.ts";

/** A subscription was charged for a new period (the charge has its own `transaction.*` events). Published by the owner of subscriptions (billing). */
export const SubscriptionRenewedEvent = defineEvent("subscription.renewed", "subscription", SubscriptionSnapshot);
export type SubscriptionRenewedEvent = z.infer<typeof SubscriptionRenewedEvent>;
