import { AppError } from "@payrail/contracts";
import { nowIso } from "@payrail/runtime";
import { checkoutNotFound } from "./get-checkout.use-case.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";

/** An active subscription becomes `cancelled`; cancelling again answers the same. */
export async function cancelSubscription(
  deps: { checkouts: CheckoutsPort },
  checkoutId: string,
): Promise<{ subscription_status: "cancelled" }> {
  if (await deps.checkouts.cancelSubscription(checkoutId, nowIso())) return { subscription_status: "cancelled" };
  const current = await deps.checkouts.findById(checkoutId);
  if (!current) throw checkoutNotFound(checkoutId);
  if (current.subscriptionStatus === "cancelled") return { subscription_status: "cancelled" };
  if (!current.isSubscription) throw new AppError("not_a_subscription", `checkout ${checkoutId} is not a subscription`);
  throw new AppError("invalid_request", `the subscription of checkout ${checkoutId} has not started`);
}
