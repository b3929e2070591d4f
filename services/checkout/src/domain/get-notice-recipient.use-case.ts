import { requireService, type Principal } from "@payrail/contracts";
import { bodyOf } from "./checkout.entity.ts";
import { checkoutNotFound } from "./get-checkout.use-case.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";

/**
 * For the notices service only: where a checkout's consumer gets email (`customer.email` as the
 * merchant sent it, else null) and what its notices say of the purchase. The email never
 * travels in an event (docs/decisions/0009-consumer-notices.md).
 */
export async function getNoticeRecipient(deps: { checkouts: CheckoutsPort }, principal: Principal, checkoutId: string) {
  requireService(principal);
  const checkout = await deps.checkouts.findById(checkoutId);
  if (!checkout) throw checkoutNotFound(checkoutId);
  const customer = bodyOf(checkout)["customer"] as { email?: unknown } | undefined;
  return {
    checkout_id: checkout._id,
    merchant_id: checkout.merchantId,
    email: typeof customer?.email === "string" ? customer.email : null,
    amount_cents: checkout.amountCents.total,
    currency: checkout.currency,
    is_subscription: checkout.isSubscription,
    plan_type: checkout.planType,
    subscription_uuid: checkout.isSubscription ? (checkout.transfer?.transaction_uuid ?? null) : null,
  };
}
