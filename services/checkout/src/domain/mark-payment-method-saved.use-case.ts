import { AppError, type CheckoutStatus } from "@payrail/contracts";
import { nowIso } from "@payrail/runtime";
import { checkoutNotFound } from "./get-checkout.use-case.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";

/**
 * The consumer's bank account is saved: `open` (or a re-link from `payment_method_saved`)
 * becomes `payment_method_saved` in one conditional write. Once a transfer has started the
 * payment method can no longer change: 409 `checkout_closed`.
 */
export async function markPaymentMethodSaved(
  deps: { checkouts: CheckoutsPort },
  checkoutId: string,
): Promise<{ id: string; status: CheckoutStatus }> {
  const updated = await deps.checkouts.markPaymentMethodSaved(checkoutId, nowIso());
  if (updated) return { id: updated._id, status: updated.status };
  const current = await deps.checkouts.findById(checkoutId);
  if (!current) throw checkoutNotFound(checkoutId);
  throw new AppError("checkout_closed", `checkout ${checkoutId} is ${current.status}; its payment method can no longer change`, {
    param: "checkout_id",
  });
}
