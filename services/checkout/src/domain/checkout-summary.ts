import { TransactionPurpose, type CheckoutSummary } from "@payrail/contracts";
import { bodyOf, type CheckoutRecord } from "./checkout.entity.ts";

/** What other services need to know of a checkout to move money for it. */
export function toCheckoutSummary(checkout: CheckoutRecord): CheckoutSummary {
  return {
    id: checkout._id,
    number: checkout.number,
    merchant_id: checkout.merchantId,
    status: checkout.status,
    amount_cents: checkout.amountCents.total,
    currency: checkout.currency,
    is_subscription: checkout.isSubscription,
    plan_type: (checkout.planType as CheckoutSummary["plan_type"]) ?? null,
    // As the merchant sent it; null: the merchant profile's default applies.
    transaction_purpose: TransactionPurpose.safeParse(bodyOf(checkout)["transaction_purpose"]).data ?? null,
  };
}
