import { AppError, reachesMerchant, type UserPrincipal } from "@payrail/contracts";
import type { TransactionsPort } from "../transactions/ports/transactions.port.ts";
import type { TransferAttemptsPort } from "../transfers/ports/transfer-attempts.port.ts";
import type { TransactionDoc } from "../transactions/transaction.entity.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";

/**
 * The record a consumer names a subscription by (`subscription_transaction_uuid`): 404 for an
 * unknown one, another consumer's or (for a sandbox token) another merchant's (never revealed),
 * 409 `not_a_subscription` for a one-off.
 */
export async function ownSubscriptionRecord(deps: { transactions: Pick<TransactionsPort, "findByUuid"> }, user: UserPrincipal, transactionUuid: string): Promise<TransactionDoc> {
  const transaction = await deps.transactions.findByUuid(transactionUuid);
  if (!transaction || transaction.user_id !== user.userId || !reachesMerchant(user, transaction.merchantId)) {
    throw new AppError("transaction_not_found", `no transaction ${transactionUuid}`, { param: "subscription_transaction_uuid" });
  }
  if (!transaction.isSubscription) {
    throw new AppError("not_a_subscription", `transaction ${transactionUuid} is not part of a subscription`, { param: "subscription_transaction_uuid" });
  }
  return transaction;
}

/** The consumer's live subscription (its transfer attempt) named by one of its records; cancelled: 409 `subscription_cancelled`. */
export async function ownLiveSubscription(
  deps: { transactions: Pick<TransactionsPort, "findByUuid">; attempts: Pick<TransferAttemptsPort, "find"> },
  user: UserPrincipal,
  transactionUuid: string,
): Promise<TransferAttemptRecord> {
  const transaction = await ownSubscriptionRecord(deps, user, transactionUuid);
  const a = await deps.attempts.find(transaction.checkoutRef);
  if (!a?.planType || a.userId !== user.userId) throw new AppError("transaction_not_found", `no transaction ${transactionUuid}`, { param: "subscription_transaction_uuid" });
  if (a.subscriptionCancelledAt || a.subscriptionStatus === "cancelled") {
    throw new AppError("subscription_cancelled", `the subscription of ${transactionUuid} is cancelled; link a bank account to a new checkout instead`, {
      param: "subscription_transaction_uuid",
    });
  }
  return a;
}
