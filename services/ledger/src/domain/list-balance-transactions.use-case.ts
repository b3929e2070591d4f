import { AppError, normalizedAmounts, normalizedWindow, requireMerchant, type BalanceTransactionListQuery, type Principal } from "@payrail/contracts";
import { toBalanceTransaction, type BalanceTransactionDoc } from "./balance-transaction.entity.ts";
import type { LedgerDeps } from "./ledger.deps.ts";
import type { BalanceTransactionFilter } from "./ports/books.port.ts";

/**
 * The merchant's balance transactions, newest first, with the §13 filters (`from` inclusive,
 * `to` exclusive, on `created_at`) and the signed amount's range (both inclusive); `starting_after` names the last row of the previous page
 * (one that is not the merchant's is 400). Exports page through this same list.
 */
export async function listBalanceTransactions(deps: Pick<LedgerDeps, "rows" | "now">, principal: Principal, query: BalanceTransactionListQuery) {
  const { merchantId } = requireMerchant(principal);
  const filter: BalanceTransactionFilter = { merchantId, ...normalizedWindow(query), ...normalizedAmounts(query) };
  if (query.type !== undefined) filter.type = query.type;
  if (query.payout_id !== undefined) filter.payoutId = query.payout_id;
  let after: BalanceTransactionDoc | undefined;
  if (query.starting_after !== undefined) {
    const found = await deps.rows.find(query.starting_after);
    if (!found || found.merchantId !== merchantId) throw new AppError("parameter_invalid", "starting_after names no balance transaction of this merchant", { param: "starting_after" });
    after = found;
  }
  const page = await deps.rows.list(filter, query.limit + 1, after);
  const now = deps.now().toISOString();
  return { data: page.slice(0, query.limit).map((doc) => toBalanceTransaction(doc, now)), has_more: page.length > query.limit };
}
