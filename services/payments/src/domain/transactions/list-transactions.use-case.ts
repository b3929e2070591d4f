import { AppError, type TransactionRecord, type UserPrincipal } from "@payrail/contracts";
import type { TransactionsPort } from "./ports/transactions.port.ts";
import { toTransactionRecord } from "./transaction.entity.ts";

/**
 * Get Subscription Details: the consumer's own records, newest first. `checkout_id` filters
 * by the record's checkout number or by the checkout's `chk_` id, whichever the client has. A
 * sandbox token lists its merchant's records only.
 */
export async function listTransactions(
  deps: { transactions: TransactionsPort },
  user: UserPrincipal,
  query: { checkout_id?: string | undefined; limit: number },
): Promise<TransactionRecord[]> {
  let checkout: { number?: number; ref?: string } | undefined;
  if (query.checkout_id !== undefined) {
    if (/^\d{1,15}$/.test(query.checkout_id)) checkout = { number: Number(query.checkout_id) };
    else if (/^chk_[0-9a-f]{32}$/.test(query.checkout_id)) checkout = { ref: query.checkout_id };
    else throw new AppError("parameter_invalid", "checkout_id must be a checkout number or a chk_ id", { param: "checkout_id" });
  }
  const docs = await deps.transactions.listForUser(user.userId, query.limit, { ...checkout, merchantId: user.merchantId });
  return docs.map(toTransactionRecord);
}
