import { requireMerchant, centsToDecimal, type BalanceResponse, type Principal } from "@payrail/contracts";
import { DEFAULT_CURRENCY } from "./books-entry.ts";
import type { LedgerDeps } from "./ledger.deps.ts";

/**
 * The merchant's balance: the running total, less what is still pending. Pending is read from
 * the rows whose `available_at` is still ahead (the last few banking days' debits, on an index),
 * so no write is needed when a row becomes available and no read covers the history.
 */
export async function getBalance(deps: Pick<LedgerDeps, "rows" | "balances" | "now">, principal: Principal): Promise<BalanceResponse> {
  const { merchantId } = requireMerchant(principal);
  const now = deps.now().toISOString();
  const total = await deps.balances.find(merchantId);
  if (!total) return { available: "0.00", pending: "0.00", currency: DEFAULT_CURRENCY };
  const ahead = await deps.rows.pendingAt(merchantId, now);
  // A row the total does not count yet (its event is being retried) is not in the balance either.
  const pendingCents = ahead.filter((r) => r.counted || r._id === total.lastBtx).reduce((sum, r) => sum + r.amountCents, 0);
  return { available: centsToDecimal(total.totalCents - pendingCents), pending: centsToDecimal(pendingCents), currency: total.currency };
}
