import type { DomainEvent } from "@payrail/contracts";
import { periodStart } from "../renewals/billing-period.ts";
import { envelope } from "../shared/payment-events.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";

export type SubscriptionEventType =
  | "subscription.renewed"
  | "subscription.past_due"
  | "subscription.unpaid"
  | "subscription.reactivated"
  | "subscription.cancelled"
  | "subscription.upcoming"
  | "subscription.updated";

/**
 * A subscription event built from the attempt as it is AFTER the change (the document the same
 * conditional write stores, with `subscriptionVersion` already counted). A subscription is its
 * checkout: the aggregate id is the checkout's `chk_` id. `current_period_*` is the last paid
 * period (null before the first charge settled); `next_charge_at` the next charge or retry.
 */
export function subscriptionEvent(
  type: SubscriptionEventType,
  after: TransferAttemptRecord,
  at: string,
  livemode: boolean,
  /** The record of the charge that caused the change, when one did. */
  chargeUuid?: string,
  /** What this type adds to the object (subscription.upcoming's `upcoming_charge`, subscription.updated's amounts). */
  extra: Record<string, unknown> = {},
): DomainEvent {
  const paid = after.anchorAt && after.planType && after.period !== undefined;
  const status = after.subscriptionStatus ?? (after.subscriptionCancelledAt ? "cancelled" : "active");
  const object = {
    id: after._id,
    object: "subscription",
    checkout_id: after._id,
    transaction_uuid: after.transactionUuid,
    status,
    plan_type: after.planType ?? null,
    current_period_start: paid ? periodStart(after.anchorAt!, after.planType!, after.period! - 1) : null,
    current_period_end: paid ? periodStart(after.anchorAt!, after.planType!, after.period!) : null,
    next_charge_at: status === "active" || status === "past_due" ? (after.nextChargeAt ?? null) : null,
    ...(chargeUuid ? { charge_transaction_uuid: chargeUuid } : {}),
    ...(after.subscriptionCancelledAt ? { cancelled_at: after.subscriptionCancelledAt } : {}),
    ...extra,
  };
  return envelope(type, { type: "subscription", id: after._id, version: after.subscriptionVersion ?? 1 }, after.merchantId, at, object, livemode);
}
