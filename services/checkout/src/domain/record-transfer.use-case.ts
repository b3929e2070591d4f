import { AppError } from "@payrail/contracts";
import { nowIso } from "@payrail/runtime";
import type { TransferSummaryRecord } from "./checkout.entity.ts";
import { checkoutNotFound } from "./get-checkout.use-case.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";

/**
 * The checkout's transfer started (payments' transaction.created): one conditional write from
 * `open` or `payment_method_saved`. A redelivered event finds the same transfer recorded and
 * answers the same; a checkout in any other state, or naming another transfer, is a conflict.
 */
export async function recordTransfer(
  deps: { checkouts: CheckoutsPort },
  checkoutId: string,
  transfer: TransferSummaryRecord,
): Promise<{ status: string }> {
  const current = await deps.checkouts.findById(checkoutId);
  if (!current) throw checkoutNotFound(checkoutId);
  const updated = await deps.checkouts.recordTransfer(checkoutId, transfer, current.isSubscription, nowIso());
  if (updated) return { status: updated.status };
  const now = await deps.checkouts.findById(checkoutId);
  if (now?.transfer?.transaction_uuid === transfer.transaction_uuid) return { status: now.status };
  throw new AppError("checkout_closed", `checkout ${checkoutId} is ${now?.status ?? "gone"}; no transfer can start`, {
    param: "checkout_id",
  });
}
