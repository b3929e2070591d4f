import { nowIso } from "@payrail/runtime";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";

/** Writes that lose to a concurrent change (the transfer being recorded) read again; a few at most. */
const TRIES = 3;

/** What the checkout reads of a subscription.* event's object (payments' subscription snapshot). */
export interface SubscriptionFacts {
  status: string;
  current_period_start?: string | null;
  current_period_end?: string | null;
  next_charge_at?: string | null;
}

/**
 * The checkout follows its subscription (payments' subscription.renewed / .past_due / .unpaid /
 * .cancelled): status and period fields move forward by the event's version in one conditional
 * write, so a redelivered or overtaken event changes nothing. An event that arrived before the
 * checkout recorded its transfer throws, to be redelivered once it has.
 */
export async function followSubscription(deps: { checkouts: CheckoutsPort }, checkoutId: string, version: number, facts: SubscriptionFacts): Promise<void> {
  const state = {
    subscriptionStatus: facts.status,
    currentPeriodStart: facts.current_period_start ?? null,
    currentPeriodEnd: facts.current_period_end ?? null,
    nextChargeAt: facts.next_charge_at ?? null,
  };
  for (let i = 0; i < TRIES; i++) {
    if (await deps.checkouts.followSubscription(checkoutId, version, state, nowIso())) return;
    const current = await deps.checkouts.findById(checkoutId);
    if (!current?.isSubscription || (current.subscriptionVersion ?? 0) >= version) return;
    if (!current.transfer) throw new Error(`subscription event ${version} for checkout ${checkoutId} arrived before its transfer was recorded`);
    // The transfer was recorded between the write and the read: write again.
  }
  throw new Error(`checkout ${checkoutId} kept changing; subscription event ${version} is applied on its redelivery`);
}
