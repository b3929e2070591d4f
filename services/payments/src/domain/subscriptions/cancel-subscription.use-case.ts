import { AppError, type UserPrincipal } from "@payrail/contracts";
import { auditEvents, nowIso, type AuditMeta } from "@payrail/runtime";
import type { PaymentEventsDeps } from "../shared/payment-events.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { TransactionsPort } from "../transactions/ports/transactions.port.ts";
import type { TransferAttemptsPort } from "../transfers/ports/transfer-attempts.port.ts";
import { subscriptionEvent } from "./subscription-events.ts";
import type { MandatesPort } from "../mandates/ports/mandates.port.ts";
import type { PaymentMethodsPort } from "../bank-accounts/ports/payment-methods.port.ts";
import { mandateIdOf } from "../mandates/require-debit-mandate.ts";
import { revokeMandate } from "../mandates/revoke-mandate.ts";
import { ownSubscriptionRecord } from "./own-subscription.ts";

/** Cancels that lose to a concurrent subscription change (a renewal settling) read again; a few at most. */
const TRIES = 5;
/** How long a cancel waits between tries while a renewal charge is being sent. */
const SENDING_WAIT_MS = 200;

/**
 * Subscription Cancel: the consumer names one of their own subscription's records; the
 * subscription (kept on the checkout's transfer attempt) becomes cancelled in one conditional
 * write (on its version as read) with its subscription.cancelled event, which the checkout
 * follows. Another user's record is as absent as an unknown one; repeating answers the same and
 * writes nothing. The records' transaction_status stays as it is: cancelling stops future
 * charges; a renewal already in flight finishes and is reported by its own events. The
 * subscription's mandate is then revoked (mandate.revoked), also on a repeat, so a crash between
 * the two writes is mended by calling again; renewals check it before each debit.
 */
export type CancelDeps = PaymentEventsDeps & {
  transactions: Pick<TransactionsPort, "findByUuid">;
  attempts: Pick<TransferAttemptsPort, "find" | "cancelSubscription">;
  mandates: Pick<MandatesPort, "find" | "revoke">;
  paymentMethods: Pick<PaymentMethodsPort, "findByCheckout">;
};

export async function cancelSubscription(deps: CancelDeps, meta: RequestMeta, user: UserPrincipal, transactionUuid: string): Promise<{ message: string }> {
  const transaction = await ownSubscriptionRecord(deps, user, transactionUuid);
  await cancelSubscriptionOf(deps, transaction.checkoutRef);
  return { message: `user ${user.phone} is unsubscribed` };
}

/**
 * The cancel itself, whoever asked (the consumer here, the merchant in
 * cancel-subscription-for-merchant.use-case.ts): the conditional write with its event (and,
 * for a merchant's cancel, its audit entry), then the mandate's revocation.
 */
export async function cancelSubscriptionOf(deps: CancelDeps, checkoutRef: string, audit?: AuditMeta): Promise<void> {
  let cancelled = false;
  for (let i = 0; i < TRIES && !cancelled; i++) {
    const attempt = await deps.attempts.find(checkoutRef);
    if (!attempt || attempt.subscriptionCancelledAt) {
      cancelled = true;
      break;
    }
    const at = nowIso();
    const after = { ...attempt, subscriptionStatus: "cancelled" as const, subscriptionCancelledAt: at, subscriptionVersion: (attempt.subscriptionVersion ?? 0) + 1 };
    const events = [subscriptionEvent("subscription.cancelled", after, at, deps.livemode)];
    if (audit) {
      const change = { service: "payments", merchantId: attempt.merchantId, action: "subscription.cancelled", object: { type: "subscription", id: attempt._id }, at, livemode: deps.livemode } as const;
      events.push(...auditEvents(audit, change));
    }
    if (await deps.attempts.cancelSubscription(attempt._id, at, after.subscriptionVersion, events)) {
      deps.events.written();
      cancelled = true;
    } else if (attempt.charge?.sendingUntil && !attempt.charge.transferId) {
      // A renewal is on its way to the provider: it gets its transfer id within moments.
      await new Promise((resolve) => setTimeout(resolve, SENDING_WAIT_MS));
    }
  }
  // Every write lost (a renewal kept being sent, or kept changing the subscription): say so
  // rather than "unsubscribed"; calling again is safe.
  if (!cancelled) {
    throw new AppError("transfer_in_progress", `subscription ${checkoutRef} is being charged; it was not cancelled, retry shortly`, { retryAfter: 1 });
  }
  await revokeMandate(deps, await mandateIdOf(deps, checkoutRef), nowIso());
}
