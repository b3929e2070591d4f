import { AppError, type MerchantPrincipal, type TransactionRecord } from "@payrail/contracts";
import { announceUpcomingCharge } from "./announce-upcoming-charge.use-case.ts";
import { chargeRenewal } from "./charge-renewal.use-case.ts";
import type { RenewalDeps } from "./renewal.deps.ts";
import { toTransactionRecord } from "../transactions/transaction.entity.ts";

/** A subscription's record list as Subscription Details shows it (newest first, at most 100). */
const RECORDS = 100;
/** Charges one advance may make: one is in flight at a time, so a couple at most; this bounds a bug. */
const MAX_CHARGES = 10;

/**
 * Sandbox test clock (docs/api-notes.md, Subscriptions and renewals): the merchant moves its subscription's clock forward to `to`
 * and every charge or retry due by then runs now, dated at its due time. One charge is in flight
 * at a time (the next is scheduled when it settles), so a renewal left `pending` holds the
 * schedule until it is simulated; advancing again then charges what became due. The renewal's
 * upcoming-charge notice due on the way (`subscription.upcoming`) is written before its charge.
 */
export async function advanceSubscriptionClock(
  deps: RenewalDeps & { sandbox: boolean },
  merchant: MerchantPrincipal,
  input: { transaction_uuid: string; to: string },
): Promise<TransactionRecord[]> {
  if (!deps.sandbox) throw new AppError("route_not_found", "test clocks exist in sandbox mode only");
  const transaction = await deps.transactions.findByUuid(input.transaction_uuid);
  if (!transaction || transaction.merchantId !== merchant.merchantId) {
    throw new AppError("transaction_not_found", `no transaction ${input.transaction_uuid}`, { param: "transaction_uuid" });
  }
  if (!transaction.isSubscription) throw new AppError("not_a_subscription", `transaction ${input.transaction_uuid} is not part of a subscription`, { param: "transaction_uuid" });
  const checkoutId = transaction.checkoutRef;
  const to = new Date(input.to).toISOString();
  const moved = await deps.schedules.moveClock(checkoutId, to);
  if (!moved) throw new AppError("invalid_request", `the subscription's clock stands later than ${to} already; it only moves forward`, { param: "to" });
  for (let i = 0; i < MAX_CHARGES; i++) {
    const noticeDue = (await deps.attempts.find(checkoutId))?.noticeDueAt;
    if (noticeDue && noticeDue <= to) await announceUpcomingCharge(deps, checkoutId, to);
    const due = (await deps.attempts.find(checkoutId))?.nextChargeAt;
    if (!due || due > to) break;
    const result = await chargeRenewal(deps, checkoutId, due);
    if (result === "busy") {
      throw new AppError("transfer_in_progress", `a renewal of ${checkoutId} is being charged by another call`, { retryAfter: 1 });
    }
    // Held for a fraud review: nothing more is charged until the merchant decides.
    if (result === "held") break;
  }
  return (await deps.transactions.listForUser(transaction.user_id, RECORDS, { ref: checkoutId })).map(toTransactionRecord);
}
