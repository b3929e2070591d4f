import { AppError, normalizedWindow, requireMerchant, type Principal, type TransactionExportPageQuery, type TransactionRecord } from "@payrail/contracts";
import type { TransactionsPort } from "./ports/transactions.port.ts";
import { toTransactionRecord } from "./transaction.entity.ts";

/**
 * A page of the merchant's transaction records, newest first, created in `from` (inclusive) to
 * `to` (exclusive): what the gateway streams as transactions.csv. `starting_after` names the last
 * record of the previous page; one that is not the merchant's is 400.
 */
export async function listMerchantTransactions(
  deps: { transactions: TransactionsPort },
  principal: Principal,
  query: TransactionExportPageQuery,
): Promise<{ data: TransactionRecord[]; has_more: boolean }> {
  const { merchantId } = requireMerchant(principal);
  let after;
  if (query.starting_after !== undefined) {
    after = await deps.transactions.findByUuid(query.starting_after);
    if (!after || after.merchantId !== merchantId) throw new AppError("parameter_invalid", "starting_after names no transaction record of this merchant", { param: "starting_after" });
  }
  const window = normalizedWindow(query);
  const page = await deps.transactions.listForMerchant(merchantId, window, query.limit + 1, after ?? undefined);
  return { data: page.slice(0, query.limit).map(toTransactionRecord), has_more: page.length > query.limit };
}
