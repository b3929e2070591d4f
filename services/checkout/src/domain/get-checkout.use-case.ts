import { AppError, type CheckoutView, type MerchantPrincipal } from "@payrail/contracts";
import { toCheckoutView } from "./checkout-view.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";

/** Get Checkout: another merchant's checkout is as absent as one that never existed. */
export async function getCheckout(
  deps: { checkouts: CheckoutsPort },
  merchant: MerchantPrincipal,
  checkoutId: string,
): Promise<CheckoutView> {
  const record = await deps.checkouts.findForMerchant(merchant.merchantId, checkoutId);
  if (!record) throw checkoutNotFound(checkoutId);
  return toCheckoutView(record);
}

export function checkoutNotFound(checkoutId: string): AppError {
  return new AppError("checkout_not_found", `no checkout ${checkoutId}`, { param: "checkout_id" });
}
