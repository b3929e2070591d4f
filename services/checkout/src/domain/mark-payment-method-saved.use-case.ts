import { AppError, type CheckoutStatus } from "@payrail/contracts";
import { nowIso } from "@payrail/runtime";
import { checkoutEvent, versionOf, type CheckoutEventsDeps } from "./checkout-events.ts";
import type { CheckoutRecord } from "./checkout.entity.ts";
import { checkoutNotFound } from "./get-checkout.use-case.ts";

/**
 * The consumer's bank account is saved: `open` becomes `payment_method_saved` in one
 * conditional write that also stores the checkout.payment_method_saved event (the outbox); a
 * re-link finds it `payment_method_saved` already and only touches it (no status change, no
 * event). Once a transfer has started the payment method can no longer change: 409
 * `checkout_closed`.
 *
 * The event's snapshot and version come from the checkout as read: the move's filter is
 * `open`, which a checkout is only once and in which nothing else writes it, so a move that
 * matches found the checkout as read.
 */
export async function markPaymentMethodSaved(deps: CheckoutEventsDeps, checkoutId: string): Promise<{ id: string; status: CheckoutStatus }> {
  const at = nowIso();
  const current = await deps.checkouts.findById(checkoutId);
  if (!current) throw checkoutNotFound(checkoutId);
  if (current.status === "open") {
    const after: CheckoutRecord = { ...current, status: "payment_method_saved", updatedAt: at, version: versionOf(current) + 1 };
    const moved = await deps.checkouts.savePaymentMethod(checkoutId, at, checkoutEvent("checkout.payment_method_saved", after, deps.livemode));
    if (moved) {
      deps.events.written();
      return { id: moved._id, status: moved.status };
    }
    // A racing save moved it first (its write carried the only event): this one is a re-link.
  }
  const relinked = await deps.checkouts.relinkPaymentMethod(checkoutId, at);
  if (relinked) return { id: relinked._id, status: relinked.status };
  const now = await deps.checkouts.findById(checkoutId);
  if (!now) throw checkoutNotFound(checkoutId);
  throw new AppError("checkout_closed", `checkout ${checkoutId} is ${now.status}; its payment method can no longer change`, {
    param: "checkout_id",
  });
}
