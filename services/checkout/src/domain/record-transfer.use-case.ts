import { AppError } from "@payrail/contracts";
import { nowIso } from "@payrail/runtime";
import type { CheckoutRecord, TransferSummaryRecord } from "./checkout.entity.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";

/**
 * The checkout's transfer started (payments' transaction.created): one conditional write from
 * `open` or `payment_method_saved`. A redelivered event finds the same transfer recorded and
 * answers the same; a checkout in any other state, or naming another transfer, is a conflict.
 * `current` is the checkout as the caller read it: only what never changes (its id, whether it
 * is a subscription) is taken from it, the write's filter decides the rest.
 */
export async function recordTransfer(
  deps: { checkouts: CheckoutsPort },
  current: Pick<CheckoutRecord, "_id" | "isSubscription">,
  transfer: TransferSummaryRecord,
): Promise<{ status: string }> {
  const checkoutId = current._id;
  const updated = await deps.checkouts.recordTransfer(checkoutId, transfer, current.isSubscription, nowIso());
  if (updated) return { status: updated.status };
  const now = await deps.checkouts.findById(checkoutId);
  if (now?.transfer?.transaction_uuid === transfer.transaction_uuid) return { status: now.status };
  throw new AppError("checkout_closed", `checkout ${checkoutId} is ${now?.status ?? "gone"}; no transfer can start`, {
    param: "checkout_id",
  });
}
