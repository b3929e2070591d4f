import { AppError, type UserPrincipal } from "@payrail/contracts";
import { nowIso } from "@payrail/runtime";
import { subscriptionCancelledEvent, type PaymentEventsDeps } from "./payment-events.ts";
import type { RequestMeta } from "./ports/checkouts.port.ts";
import type { TransactionsPort } from "./ports/transactions.port.ts";
import type { TransferAttemptsPort } from "./ports/transfer-attempts.port.ts";

/**
 * Subscription Cancel: the consumer names one of their own subscription's records; the
 * subscription (kept on the checkout's transfer attempt) becomes cancelled in one conditional
 * write with its subscription.cancelled event, which the checkout follows. Another user's
 * record is as absent as an unknown one; repeating answers the same and writes nothing. The
 * records' transaction_status stays as it is: cancelling stops future charges, it does not
 * undo a transfer.
 */
export async function cancelSubscription(
  deps: PaymentEventsDeps & { transactions: Pick<TransactionsPort, "findByUuid">; attempts: Pick<TransferAttemptsPort, "find" | "cancelSubscription"> },
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
  const attempt = await deps.attempts.find(transaction.checkoutRef);
  if (attempt && !attempt.subscriptionCancelledAt) {
    const at = nowIso();
    const version = (attempt.subscriptionVersion ?? 0) + 1;
    const event = subscriptionCancelledEvent(
      { checkoutId: attempt._id, merchantId: attempt.merchantId, transactionUuid: attempt.transactionUuid, version },
      at,
      deps.livemode,
    );
    if (await deps.attempts.cancelSubscription(attempt._id, at, version, event)) deps.events.written();
  }
  return { message: `user ${user.phone} is unsubscribed` };
}
