import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { SubscriptionSnapshot } from "./event-snapshots.ts";

/** The retries of a failed renewal ran out: charging stops. Published by the owner of subscriptions (billing). */
export const SubscriptionUnpaidEvent = defineEvent("subscription.unpaid", "subscription", SubscriptionSnapshot);
export type SubscriptionUnpaidEvent = z.infer<typeof SubscriptionUnpaidEvent>;
