import type { CheckoutSummary, Principal } from "@payrail/contracts";
import { AppError } from "@payrail/contracts";
import { toCheckoutSummary } from "./checkout-summary.ts";
import { checkoutNotFound } from "./get-checkout.use-case.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";

/** A checkout's summary: to its own merchant, or to another service; anyone else learns nothing. */
export async function getCheckoutSummary(
  deps: { checkouts: CheckoutsPort },
  principal: Principal,
  checkoutId: string,
): Promise<CheckoutSummary> {
  let checkout;
  if (principal.kind === "merchant") checkout = await deps.checkouts.findForMerchant(principal.merchantId, checkoutId);
  else if (principal.kind === "service") checkout = await deps.checkouts.findById(checkoutId);
  else throw new AppError("permission_denied", "this action needs a merchant api-key");
  if (!checkout) throw checkoutNotFound(checkoutId);
  return toCheckoutSummary(checkout);
}
