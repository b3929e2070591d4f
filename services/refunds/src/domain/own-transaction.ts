import { AppError, reachesMerchant, type RefundableTransaction, type UserPrincipal } from "@payrail/contracts";
import type { RequestMeta } from "./ports/payments.port.ts";
import type { RefundsDeps } from "./refunds.deps.ts";

/**
 * The consumer's own transaction. Refunds asks payments on its own account (it never passes on
 * the consumer's principal), so the tenant check is here: another consumer's transaction, or
 * for a sandbox token another merchant's, is answered exactly as an unknown one.
 */
export async function ownTransaction(deps: Pick<RefundsDeps, "payments">, meta: RequestMeta, user: UserPrincipal, transactionUuid: string): Promise<RefundableTransaction> {
  // An unknown transaction is payments' transaction_not_found, the same error as below.
  const transaction = await deps.payments.getTransaction(meta, transactionUuid);
  if (transaction.user_id !== user.userId || !reachesMerchant(user, transaction.merchant_id)) throw transactionNotFound(transactionUuid);
  return transaction;
}

function transactionNotFound(transactionUuid: string): AppError {
  return new AppError("transaction_not_found", `no transaction ${transactionUuid}`, { param: "transaction_uuid" });
}
