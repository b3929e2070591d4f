import { centsToDecimal, type CheckoutView } from "@payrail/contracts";
import { bodyOf, type CheckoutRecord } from "./checkout.entity.ts";

/**
 * Get Checkout's answer: every key as the merchant sent it, then the fields the server owns.
 * `updated_at` echoes the merchant's value until the server itself changes the checkout.
 *
 * Built by copying the body and then setting each field, not as `{ ...body, id, … }`: V8 makes
 * that literal (a spread followed by more keys) about 20 times slower, and it was 4% of a Get's
 * CPU. The result is the same object: the body's keys first, in their order, a server field the
 * body also holds (`created_at`, `subscription_status`) overwritten where it stands. The body's
 * keys are its schema's (unknown keys are dropped on create), so none is `__proto__`.
 */
export function toCheckoutView(record: CheckoutRecord): CheckoutView {
  const body = bodyOf(record);
  const sentCreated = typeof body.created_at === "string" ? body.created_at : undefined;
  const sentUpdated = typeof body.updated_at === "string" ? body.updated_at : undefined;
  const changedByServer = record.updatedAt !== record.createdAt;
  const view = Object.assign({}, body) as CheckoutView;
  view.id = record._id;
  view.status = record.status;
  view.subscription_status = record.subscriptionStatus;
  view.transfer = record.transfer;
  if (record.isSubscription) {
    view.current_period_start = record.currentPeriodStart ?? null;
    view.current_period_end = record.currentPeriodEnd ?? null;
    view.next_charge_at = record.nextChargeAt ?? null;
  }
  view.mandate_id = record.mandateId ?? null;
  view.amount_refunded = amountRefunded(record.refundedCents);
  view.created_at = sentCreated ?? record.createdAt;
  view.updated_at = changedByServer ? record.updatedAt : (sentUpdated ?? record.createdAt);
  return view;
}

function amountRefunded(refundedCents: Record<string, number> | undefined): number {
  let cents = 0;
  for (const key in refundedCents) cents += refundedCents[key]!;
  return Number(centsToDecimal(cents));
}
