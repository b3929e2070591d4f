import { AppError, type MerchantPrincipal } from "@payrail/contracts";
import type { AuditMeta } from "@payrail/runtime";
import { cancelSubscriptionOf, type CancelDeps } from "./cancel-subscription.use-case.ts";

/** The merchant's side of a cancel: its own subscription (by checkout), then the same cancel as the consumer's. */
export async function cancelSubscriptionForMerchant(deps: CancelDeps, meta: AuditMeta & { principal: MerchantPrincipal }, checkoutId: string) {
  const merchant = meta.principal;
  const attempt = await deps.attempts.find(checkoutId);
  // Another merchant's subscription is as absent as an unknown one.
  if (!attempt || attempt.merchantId !== merchant.merchantId) {
    throw new AppError("checkout_not_found", `no paid checkout ${checkoutId}`, { param: "checkout_id" });
  }
  if (!attempt.isSubscription) throw new AppError("not_a_subscription", `checkout ${checkoutId} is not a subscription`, { param: "checkout_id" });
  await cancelSubscriptionOf(deps, checkoutId, meta);
  return { checkout_id: checkoutId, subscription_status: "cancelled" as const };
}
