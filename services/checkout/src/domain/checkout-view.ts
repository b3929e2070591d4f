import { centsToDecimal, type CheckoutView } from "@payrail/contracts";
import { bodyOf, type CheckoutRecord } from "./checkout.entity.ts";

/**
 * Get Checkout's answer: every key as the merchant sent it, then the fields the server owns.
 * `updated_at` echoes the merchant's value until the server itself changes the checkout.
 */
export function toCheckoutView(record: CheckoutRecord): CheckoutView {
  const body = bodyOf(record);
  const sentCreated = typeof body.created_at === "string" ? body.created_at : undefined;
  const sentUpdated = typeof body.updated_at === "string" ? body.updated_at : undefined;
  const changedByServer = record.updatedAt !== record.createdAt;
  return {
    ...body,
    id: record._id,
    status: record.status,
    subscription_status: record.subscriptionStatus,
    transfer: record.transfer,
    ...(record.isSubscription
      ? { current_period_start: record.currentPeriodStart ?? null, current_period_end: record.currentPeriodEnd ?? null, next_charge_at: record.nextChargeAt ?? null }
      : {}),
    mandate_id: record.mandateId ?? null,
    amount_refunded: Number(centsToDecimal(Object.values(record.refundedCents ?? {}).reduce((sum, cents) => sum + cents, 0))),
    created_at: sentCreated ?? record.createdAt,
    updated_at: changedByServer ? record.updatedAt : (sentUpdated ?? record.createdAt),
  };
}
