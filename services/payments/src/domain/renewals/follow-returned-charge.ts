import { periodStart } from "./billing-period.ts";
import { afterFailure, type AfterFailure } from "./renewal-policy.ts";
import type { RenewalOutcomeDeps } from "./renewal.deps.ts";
import { subscriptionEvent } from "../subscriptions/subscription-events.ts";
import type { TransactionDoc } from "../transactions/transaction.entity.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";

/** Changes that lose to a concurrent one (the consumer cancelling) read again; a few at most. */
const TRIES = 5;

/**
 * A subscription's charge came back after it had settled (docs/api-notes.md, Returns and blocked bank accounts: a returned renewal is a
 * failed renewal). The period it paid is unpaid again: a renewal whose code may be retried is
 * charged again (`past_due`, the retry dated from now, when the return was learnt, not from the
 * period's due date, which may be weeks ago); a final code, no retry left, or a returned first
 * charge (the consumer never paid at all) ends the subscription as a failed renewal does. Applied
 * once per returned record (`returnedCharges`), in one conditional write with its event; while
 * another charge of the subscription is in flight it waits (the caller is asked again: a
 * provider notice is redelivered, the reconciler passes again).
 */
export async function followReturnedCharge(deps: RenewalOutcomeDeps, tx: TransactionDoc): Promise<void> {
  for (let i = 0; i < TRIES; i++) {
    const a = await deps.attempts.find(tx.checkoutRef);
    if (!a?.planType || a.returnedCharges?.includes(tx._id)) return;
    const returnedCharges = [...(a.returnedCharges ?? []), tx._id];
    const live = a.subscriptionStatus === "active" || a.subscriptionStatus === "past_due";
    if (live && a.charge) throw new Error(`a charge of subscription ${a._id} is in flight; the return of ${tx._id} is applied once it settled`);
    const at = deps.now().toISOString();
    const next: AfterFailure | null = !live
      ? null
      : tx.renewalPeriod === undefined
        ? { kind: "end", status: deps.renewalPolicy.finalStatus }
        : afterFailure(deps.renewalPolicy, tx.failure_code ?? null, learntAt(a, at), tx.renewalTry ?? 0, periodStart(a.anchorAt!, a.planType, tx.renewalPeriod));
    const set: Partial<TransferAttemptRecord> = !next
      ? { returnedCharges }
      : next.kind === "retry"
        ? { returnedCharges, period: tx.renewalPeriod!, periodTry: next.tryNumber, subscriptionStatus: "past_due", nextChargeAt: next.at }
        : { returnedCharges, nextChargeAt: null, subscriptionStatus: next.status, ...(next.status === "cancelled" ? { subscriptionCancelledAt: at } : {}) };
    const type = !next ? null : next.kind === "retry" ? "subscription.past_due" : next.status === "cancelled" ? "subscription.cancelled" : "subscription.unpaid";
    const version = type ? (a.subscriptionVersion ?? 0) + 1 : a.subscriptionVersion;
    const after = { ...a, ...set, ...(version !== undefined ? { subscriptionVersion: version } : {}) };
    const event = type ? subscriptionEvent(type, after, at, deps.livemode, tx._id) : null;
    const changed = await deps.schedules.change(a._id, { version: a.subscriptionVersion, chargeUuid: undefined }, type ? { ...set, subscriptionVersion: version! } : set, event);
    if (changed) {
      if (event) deps.events.written();
      return;
    }
  }
  throw new Error(`subscription ${tx.checkoutRef} kept changing; the return of ${tx._id} is applied on the next notice`);
}

/** When a failure or return was learnt: now, or in the sandbox the subscription's test clock when it stands later. */
export function learntAt(a: TransferAttemptRecord, now: string): string {
  return a.clockAt && a.clockAt > now ? a.clockAt : now;
}
