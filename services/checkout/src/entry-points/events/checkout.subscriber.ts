import { AppError, type AnyDomainEvent } from "@payrail/contracts";
import { EventCannotApply, type EventTransport, type SubscribeOptions } from "@payrail/messaging";
import { followSubscription, type SubscriptionFacts } from "../../domain/follow-subscription.use-case.ts";
import { followTransaction, type TransactionFacts } from "../../domain/follow-transaction.use-case.ts";
import { markPaymentMethodSaved } from "../../domain/mark-payment-method-saved.use-case.ts";
import { recordRefund, RefundReportRefused } from "../../domain/record-refund.use-case.ts";
import type { CheckoutDeps } from "../rpc/deps.ts";

/** The events the checkout follows: what payments' changes mean for a checkout. */
export const CHECKOUT_SUBSCRIPTIONS = ["payment_method.saved", "transaction.*", "subscription.*", "refund_payout.settled", "mandate.created"] as const;

/**
 * The checkout service's event entry point: one queue (`checkout.events`), every change a
 * forward-only conditional write (on the status before, the subscription's version, a larger
 * refunded figure, a later mandate), so a redelivered or reordered event is harmless by itself
 * and no record of processed events is kept: it would cost a read and a write per event to
 * spare a repeat a write that changes nothing. A throw is retried by the transport (with
 * backoff, for EVENT_RETRY_HOURS): used when an event arrived before the one it depends on (a
 * subscription event before the subscription's first transfer was recorded). An event about a
 * checkout this service never had can never apply (payments reads the checkout before it
 * starts anything): it is dead-lettered at once (`EventCannotApply`).
 */
export async function subscribeCheckoutEvents(transport: EventTransport, deps: CheckoutDeps, options?: SubscribeOptions): Promise<void> {
  await transport.subscribe("checkout", CHECKOUT_SUBSCRIPTIONS, (event) => apply(deps, event).catch(unknownCheckout), options);
}

/** A checkout it never had, or a refund report it can never take: dead at once, never retried. */
function unknownCheckout(err: unknown): never {
  if ((err instanceof AppError && err.code === "checkout_not_found") || err instanceof RefundReportRefused) throw new EventCannotApply(err.message, { cause: err });
  throw err;
}

async function apply(deps: CheckoutDeps, event: AnyDomainEvent): Promise<void> {
  switch (event.type) {
    case "payment_method.saved":
      return ignoreClosed(markPaymentMethodSaved(deps, event.data.object.checkout_id));
    case "transaction.created":
    case "transaction.completed":
    case "transaction.failed":
    case "transaction.returned":
      // Payments' own record as the API shows it: the schema checks the ids and status only.
      await followTransaction(deps, event.data.object as unknown as TransactionFacts);
      return;
    case "subscription.renewed":
    case "subscription.past_due":
    case "subscription.unpaid":
    case "subscription.reactivated":
    case "subscription.cancelled":
      // Payments' subscription snapshot: the schema is loose, the checkout reads status and periods.
      await followSubscription(deps, event.aggregate.id, event.aggregate.version, event.data.object as unknown as SubscriptionFacts);
      return;
    case "refund_payout.settled": {
      const payout = event.data.object;
      if (payout.status !== "completed") return;
      await recordRefund(deps, {
        checkout_id: payout.checkout_id,
        transaction_uuid: payout.transaction_uuid,
        amount_refunded_cents: payout.amount_refunded_cents,
        fully_refunded: payout.fully_refunded,
      });
      return;
    }
    case "mandate.created":
      // Learnt from payments' event, never asked for: the checkout shows its `mandate_id`.
      await deps.checkouts.recordMandate(event.data.object.checkout_id, event.data.object.id, event.data.object.accepted_at);
      return;
    default:
      return;
  }
}

/** A bank account saved after the transfer started changes nothing: the checkout has moved on. */
async function ignoreClosed(saving: Promise<unknown>): Promise<void> {
  try {
    await saving;
  } catch (err) {
    if (!(err instanceof AppError && err.code === "checkout_closed")) throw err;
  }
}
