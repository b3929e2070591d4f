import { periodStart } from "./billing-period.ts";
import { followReturnedCharge, learntAt } from "./follow-returned-charge.ts";
import { afterFailure } from "./renewal-policy.ts";
import type { RenewalOutcomeDeps } from "./renewal.deps.ts";
import { subscriptionEvent, type SubscriptionEventType } from "../subscriptions/subscription-events.ts";
import type { TransactionDoc } from "../transactions/transaction.entity.ts";
import type { RenewalCharge, TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";
import { periodDue } from "./upcoming-charge.ts";

/** Changes that lose to a concurrent one (the consumer cancelling) read again; a few at most. */
const TRIES = 5;

type Change = { set: Partial<TransferAttemptRecord>; type: SubscriptionEventType | null };

/**
 * A subscription's charge became final: the schedule moves on in one conditional write (on the
 * subscription's version and the charge it awaited) with its subscription.* event. The first
 * charge completing starts the schedule (period 1 due one period after it); a renewal completing
 * clears `past_due` and schedules the next period; a failure schedules the next retry
 * (`past_due`) or ends the subscription (at once for a final ACH return, or a transfer the
 * provider refused to start). A record the subscription no longer awaits (applied
 * before: a replayed status) changes nothing.
 */
export async function followSubscriptionCharge(deps: RenewalOutcomeDeps, tx: TransactionDoc): Promise<void> {
  if (!tx.isSubscription || tx.transaction_status === "pending") return;
  if (tx.transaction_status === "returned") return followReturnedCharge(deps, tx);
  await applyChargeOutcome(deps, tx.checkoutRef, tx._id, { completed: tx.transaction_status === "completed", error: tx.error, at: tx.transaction_date_time });
}

/**
 * How a charge ended: completed, or failed with its ACH return code; `refused` when the provider
 * refused to start it at all (the same request can never succeed, so no retry).
 */
export interface ChargeOutcome {
  completed: boolean;
  error: string | null;
  /** The charge's date (the first charge's is the subscription's anchor). */
  at: string;
  refused?: boolean;
}

/** The subscription's side of the outcome of its charge `chargeUuid` (see followSubscriptionCharge). */
export async function applyChargeOutcome(deps: RenewalOutcomeDeps, checkoutId: string, chargeUuid: string, outcome: ChargeOutcome): Promise<void> {
  for (let i = 0; i < TRIES; i++) {
    const a = await deps.attempts.find(checkoutId);
    if (!a?.planType) return;
    const first = a.period == null && a.transactionUuid === chargeUuid;
    const charge = a.charge?.transactionUuid === chargeUuid ? a.charge : null;
    if (!first && !charge) return;
    const at = deps.now().toISOString();
    const change = first ? afterFirstCharge(a, outcome) : afterRenewal(deps, a, charge!, outcome, at);
    if (!change) return;
    const version = change.type ? (a.subscriptionVersion ?? 0) + 1 : a.subscriptionVersion;
    const set = change.type ? { ...change.set, subscriptionVersion: version! } : change.set;
    const event = change.type ? subscriptionEvent(change.type, { ...a, ...set }, at, deps.livemode, chargeUuid) : null;
    if (await deps.schedules.change(a._id, { version: a.subscriptionVersion, chargeUuid: first ? null : chargeUuid }, set, event)) {
      if (event) deps.events.written();
      return;
    }
  }
  throw new Error(`subscription ${checkoutId} kept changing; the outcome of ${chargeUuid} is applied on the next status event`);
}

function afterFirstCharge(a: TransferAttemptRecord, outcome: ChargeOutcome): Change | null {
  // A first charge that failed starts nothing: the checkout failed with it.
  if (!outcome.completed) return null;
  const anchorAt = outcome.at;
  const live = !a.subscriptionCancelledAt;
  return {
    set: { anchorAt, period: 1, periodTry: 0, subscriptionStatus: live ? "active" : "cancelled", ...(live ? periodDue(periodStart(anchorAt, a.planType!, 1)) : { nextChargeAt: null }) },
    type: live ? "subscription.renewed" : null,
  };
}

function afterRenewal(deps: RenewalOutcomeDeps, a: TransferAttemptRecord, charge: RenewalCharge, outcome: ChargeOutcome, at: string): Change {
  // Cancelled while the charge was in flight: it is reported by its own transaction event only.
  if (a.subscriptionStatus !== "active" && a.subscriptionStatus !== "past_due") return { set: { charge: null, nextChargeAt: null }, type: null };
  if (outcome.completed) {
    const period = charge.period + 1;
    return { set: { charge: null, period, periodTry: 0, subscriptionStatus: "active", ...periodDue(periodStart(a.anchorAt!, a.planType!, period)) }, type: "subscription.renewed" };
  }
  const first = periodStart(a.anchorAt!, a.planType!, charge.period);
  const next = outcome.refused
    ? ({ kind: "end", status: deps.renewalPolicy.finalStatus } as const)
    : afterFailure(deps.renewalPolicy, outcome.error, learntAt(a, at), charge.tryNumber, first);
  if (next.kind === "retry") return { set: { charge: null, periodTry: next.tryNumber, subscriptionStatus: "past_due", nextChargeAt: next.at }, type: "subscription.past_due" };
  return {
    set: { charge: null, nextChargeAt: null, subscriptionStatus: next.status, ...(next.status === "cancelled" ? { subscriptionCancelledAt: at } : {}) },
    type: next.status === "cancelled" ? "subscription.cancelled" : "subscription.unpaid",
  };
}
