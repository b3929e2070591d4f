import { nowIso } from "@payrail/runtime";
import { checkoutNotFound } from "./get-checkout.use-case.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";

/**
 * Refunds of one of the checkout's transactions sent `amount_refunded_cents` back in all. Each
 * figure only grows, so the larger one is kept (a repeated or late report changes nothing). The
 * checkout's status follows the transfer it names, as `paid` does: once that payment is fully
 * refunded, `paid` becomes `refunded`; a subscription's later charges add to `amount_refunded`.
 */
export async function recordRefund(
  deps: { checkouts: CheckoutsPort },
  input: { checkout_id: string; transaction_uuid: string; amount_refunded_cents: number; fully_refunded: boolean },
): Promise<{ status: string }> {
  const at = nowIso();
  await deps.checkouts.recordRefunded(input.checkout_id, input.transaction_uuid, input.amount_refunded_cents, at);
  // Also on a repeat: repairs a status change lost after the figure was recorded.
  const refunded = input.fully_refunded ? await deps.checkouts.markRefunded(input.checkout_id, input.transaction_uuid, at) : null;
  const current = refunded ?? (await deps.checkouts.findById(input.checkout_id));
  if (!current) throw checkoutNotFound(input.checkout_id);
  return { status: current.status };
}
