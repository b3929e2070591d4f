import { nowIso } from "@payrail/runtime";
import { checkoutNotFound } from "./get-checkout.use-case.ts";
import type { CheckoutRecord } from "./checkout.entity.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";

/**
 * Refunds of one of the checkout's transactions sent `amount_refunded_cents` back in all. Each
 * figure only grows, so the larger one is kept (a repeated or late report changes nothing). The
 * checkout's status follows the transfer it names, as `paid` does: once that payment is fully
 * refunded, `paid` becomes `refunded`; a subscription's later charges add to `amount_refunded`.
 *
 * The figure is checked against what the checkout knows, since it comes from another service:
 * no transaction of the checkout is ever charged more than its total (a renewal charges the
 * same amount), so more refunded than that is refused, and so is a one-off checkout's refund
 * of a transaction that is not its transfer. A refused report changes nothing and throws (the
 * event is retried, then dead-lettered, where it can be looked at).
 */
export async function recordRefund(
  deps: { checkouts: CheckoutsPort },
  input: { checkout_id: string; transaction_uuid: string; amount_refunded_cents: number; fully_refunded: boolean },
): Promise<{ status: string }> {
  const at = nowIso();
  const found = await deps.checkouts.findById(input.checkout_id);
  if (!found) throw checkoutNotFound(input.checkout_id);
  const refused = refusedRefund(found, input.transaction_uuid, input.amount_refunded_cents);
  if (refused) throw new RefundReportRefused(`refund of ${input.transaction_uuid} on checkout ${input.checkout_id} refused: ${refused}`);
  const total = found.amountCents.total;
  await deps.checkouts.recordRefunded(input.checkout_id, input.transaction_uuid, input.amount_refunded_cents, at);
  // Also on a repeat: repairs a status change lost after the figure was recorded.
  const fully = input.fully_refunded && input.amount_refunded_cents >= total;
  const refunded = fully ? await deps.checkouts.markRefunded(input.checkout_id, input.transaction_uuid, at) : null;
  const current = refunded ?? (await deps.checkouts.findById(input.checkout_id));
  if (!current) throw checkoutNotFound(input.checkout_id);
  return { status: current.status };
}

/** Why this refunded figure cannot be the checkout's, or undefined when it can. */
function refusedRefund(checkout: CheckoutRecord, transactionUuid: string, cents: number): string | undefined {
  if (cents > checkout.amountCents.total) return `${cents} cents refunded exceed the payment's total of ${checkout.amountCents.total}`;
  const own = checkout.transfer?.transaction_uuid;
  if (!checkout.isSubscription && own !== undefined && own !== transactionUuid) return `the checkout's payment is ${own}`;
  return undefined;
}

/** A refund report that can never be this checkout's: no retry can make it apply. */
export class RefundReportRefused extends Error {
  override readonly name = "RefundReportRefused";
}
