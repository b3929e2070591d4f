import { AppError, type UserPrincipal } from "@payrail/contracts";
import type { CheckoutsPort, RequestMeta } from "./ports/checkouts.port.ts";
import type { TransactionsPort } from "./ports/transactions.port.ts";

/**
 * Subscription Cancel: the consumer names one of their own subscription's records; the
 * checkout's subscription becomes `cancelled`. Another user's record is as absent as an
 * unknown one; repeating answers the same. The records' transaction_status stays as it is:
 * cancelling stops future charges, it does not undo a transfer.
 */
export async function cancelSubscription(
  deps: { transactions: TransactionsPort; checkouts: CheckoutsPort },
  meta: RequestMeta,
  user: UserPrincipal,
  transactionUuid: string,
): Promise<{ message: string }> {
  const transaction = await deps.transactions.findByUuid(transactionUuid);
  if (!transaction || transaction.user_id !== user.userId) {
    throw new AppError("transaction_not_found", `no transaction ${transactionUuid}`, { param: "subscription_transaction_uuid" });
  }
  if (!transaction.isSubscription) {
    throw new AppError("not_a_subscription", `transaction ${transactionUuid} is not part of a subscription`, {
      param: "subscription_transaction_uuid",
    });
  }
  await deps.checkouts.cancelSubscription(meta, transaction.checkoutRef);
  return { message: `user ${user.phone} is unsubscribed` };
}
