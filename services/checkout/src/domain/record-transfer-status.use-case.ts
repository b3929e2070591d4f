import { nowIso } from "@payrail/runtime";
import { checkoutNotFound } from "./get-checkout.use-case.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";

const CHECKOUT_STATUS = { completed: "paid", failed: "failed", cancelled: "failed", returned: "returned" } as const;

/**
 * The transfer reached a final status: `transfer_pending` becomes `paid` or `failed` once, and
 * a payment the bank sent back after it settled becomes `returned` (docs/api-notes.md, Returns and blocked bank accounts).
 * Replays and late, out-of-order reports find the checkout already final and change nothing.
 */
export async function recordTransferStatus(
  deps: { checkouts: CheckoutsPort },
  input: { checkout_id: string; transaction_uuid: string; status: "completed" | "failed" | "cancelled" | "returned" },
): Promise<{ status: string; changed: boolean }> {
  const target = CHECKOUT_STATUS[input.status];
  const updated = await deps.checkouts.recordTransferStatus(input.checkout_id, input.transaction_uuid, target, input.status, nowIso());
  if (updated) return { status: updated.status, changed: true };
  const current = await deps.checkouts.findById(input.checkout_id);
  if (!current) throw checkoutNotFound(input.checkout_id);
  return { status: current.status, changed: false };
}
