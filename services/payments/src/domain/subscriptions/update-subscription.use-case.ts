import { AppError, centsToDecimal, toCents, type MerchantPrincipal, type UpdateSubscriptionResult } from "@payrail/contracts";
import { auditEvents, type AuditMeta } from "@payrail/runtime";
import { periodStart } from "../renewals/billing-period.ts";
import type { RenewalOutcomeDeps } from "../renewals/renewal.deps.ts";
import { subscriptionEvent } from "./subscription-events.ts";
import type { AmountChange, TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";
import { amountForPeriod, firstPeriodForNewAmount, noticeLookFrom } from "../renewals/upcoming-charge.ts";

/** Writes that lose to a concurrent change (a renewal, a cancel) read again; a few at most. */
const TRIES = 5;

/**
 * The merchant changes its subscription's amount (POST /api/merchants/subscriptions/{checkout_id}).
 * The new amount applies from the first renewal at least 10 days away that is not being charged,
 * retried or announced at the old amount (firstPeriodForNewAmount), so the consumer is always told
 * 10 days before (Reg E 1005.10(d)). A change that starts at the same renewal as a pending one
 * replaces it; one that would start later, before the pending one has been charged from, is
 * refused (409): the record keeps one change, the amounts before and from it, and a second one
 * starting later would make the renewals before it, or the pending change's own notice, read
 * the first change's amount as the old one.
 * One conditional write on the subscription's version carries `subscription.updated` with the
 * amounts and when the new one starts, and the change's audit entry; if that renewal is the next
 * one, its notice is looked at from 10 days before it. An amount the subscription already charges
 * from then on (a repeated call) changes nothing: no write, no event, no entry.
 */
export async function updateSubscription(
  deps: RenewalOutcomeDeps,
  meta: AuditMeta & { principal: MerchantPrincipal },
  input: { checkout_id: string; amount: number | string },
): Promise<UpdateSubscriptionResult> {
  const merchant = meta.principal;
  const amountCents = toCents(input.amount);
  if (amountCents === null || amountCents <= 0) throw new AppError("amount_invalid", "amount must be greater than 0", { param: "amount" });
  for (let i = 0; i < TRIES; i++) {
    const a = await deps.attempts.find(input.checkout_id);
    // Another merchant's subscription is as absent as an unknown one.
    if (!a || a.merchantId !== merchant.merchantId) throw new AppError("checkout_not_found", `no paid checkout ${input.checkout_id}`, { param: "checkout_id" });
    if (!a.isSubscription) throw new AppError("not_a_subscription", `checkout ${a._id} is not a subscription`, { param: "checkout_id" });
    if (a.subscriptionCancelledAt || a.subscriptionStatus === "cancelled") throw new AppError("subscription_cancelled", `subscription ${a._id} is cancelled`, { param: "checkout_id" });
    if (!a.anchorAt || !a.planType || a.period === undefined) {
      throw new AppError("transaction_not_settled", `the first charge of subscription ${a._id} has not settled yet; change its amount after it has`, { param: "checkout_id" });
    }
    const real = deps.now().toISOString();
    // A sandbox subscription lives on its test clock: 10 days away counts from there.
    const now = a.clockAt && a.clockAt > real ? a.clockAt : real;
    const fromPeriod = firstPeriodForNewAmount(a, now);
    const pending = a.amountChange;
    if (amountForPeriod(a, fromPeriod) === amountCents) {
      const same = pending?.amountCents === amountCents ? pending : null;
      return {
        checkout_id: a._id,
        amount: input.amount,
        previous_amount: centsToDecimal(same ? same.previousAmountCents : amountCents),
        amount_effective_at: periodStart(a.anchorAt, a.planType, same ? same.fromPeriod : fromPeriod),
        subscription_status: a.subscriptionStatus ?? "active",
      };
    }
    // `period` is the next period to charge: the pending change has not been charged from yet.
    if (pending && a.period <= pending.fromPeriod && fromPeriod > pending.fromPeriod) {
      const startsAt = periodStart(a.anchorAt, a.planType, pending.fromPeriod);
      throw new AppError("amount_change_pending", `subscription ${a._id} changes to ${centsToDecimal(pending.amountCents)} from ${startsAt}; change its amount again once that renewal is made`, {
        param: "amount",
      });
    }
    const previousAmountCents = amountForPeriod(a, fromPeriod - 1);
    const change: AmountChange = { amountCents, previousAmountCents, fromPeriod, changedAt: real };
    const effectiveAt = periodStart(a.anchorAt, a.planType, fromPeriod);
    const set: Partial<TransferAttemptRecord> = {
      amountChange: change,
      subscriptionVersion: (a.subscriptionVersion ?? 0) + 1,
      ...(fromPeriod === a.period && a.nextChargeAt === effectiveAt ? { noticeDueAt: noticeLookFrom(effectiveAt) } : {}),
    };
    const event = subscriptionEvent("subscription.updated", { ...a, ...set }, real, deps.livemode, undefined, {
      amount: centsToDecimal(amountCents),
      previous_amount: centsToDecimal(previousAmountCents),
      currency: a.currency,
      amount_effective_at: effectiveAt,
    });
    const audit = auditEvents(meta, { service: "payments", merchantId: a.merchantId, action: "subscription.amount_changed", object: { type: "subscription", id: a._id }, at: real, livemode: deps.livemode });
    if (await deps.schedules.change(a._id, { version: a.subscriptionVersion, chargeUuid: a.charge ? a.charge.transactionUuid : undefined }, set, event, audit)) {
      deps.events.written();
      return {
        checkout_id: a._id,
        amount: input.amount,
        previous_amount: centsToDecimal(previousAmountCents),
        amount_effective_at: effectiveAt,
        subscription_status: a.subscriptionStatus ?? "active",
      };
    }
  }
  throw new AppError("transfer_in_progress", `subscription ${input.checkout_id} is changing; retry shortly`, { retryAfter: 1 });
}
