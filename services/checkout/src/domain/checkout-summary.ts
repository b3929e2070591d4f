import type { CheckoutSummary } from "@payrail/contracts";
import type { CheckoutRecord } from "./checkout.entity.ts";

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
  };
}
