import type { DomainEvent, RefundPayoutSnapshot } from "@payrail/contracts";
import { prefixedHexId } from "@payrail/runtime";
import { toTransactionRecord, type TransactionDoc } from "../transactions/transaction.entity.ts";

/**
 * The events payments publishes, each built from its document as it is AFTER the change (the
 * document about to be written), so the snapshot and version are what the same conditional
 * write stores with it (the outbox, docs/events.md). `created_at` is the change's time.
 */

/** What the use cases that write events need: whether money is real, and a nudge for the relay. */
export interface PaymentEventsDeps {
  /** Whether this deployment moves real money (PROVIDERS=live): the events' `livemode`. */
  livemode: boolean;
  /** Told after every write that stored events, so they are published at once. */
  events: { written(): void };
}

export function envelope(type: DomainEvent["type"], aggregate: DomainEvent["aggregate"], merchantId: string, at: string, object: unknown, livemode: boolean): DomainEvent {
  return { id: prefixedHexId("evt_"), type, created_at: at, aggregate, livemode, merchant_id: merchantId, data: { object } };
}

type TransactionEventType = "transaction.created" | "transaction.completed" | "transaction.failed" | "transaction.returned";

/** The catalogue's name for a transaction record reaching `status`. A cancelled transfer moved no money: `transaction.failed`. */
export function transactionEventType(status: TransactionDoc["transaction_status"]): TransactionEventType {
  if (status === "pending") return "transaction.created";
  if (status === "returned") return "transaction.returned";
  return status === "completed" ? "transaction.completed" : "transaction.failed";
}

/**
 * transaction.created / .completed / .failed / .returned: the record as Get Subscription Details
 * shows it, dated at the change (`at`, by default the record's updated_at). A charge the sandbox
 * test clock makes is dated in the clock's time while its event is made now: the events API lists
 * events in the order they happened, so that charge's event must carry the real time.
 */
export function transactionEvent(after: TransactionDoc, livemode: boolean, at: string = after.updated_at): DomainEvent {
  return envelope(
    transactionEventType(after.transaction_status),
    { type: "transaction", id: after._id, version: after.version ?? 1 },
    after.merchantId,
    at,
    toTransactionRecord(after),
    livemode,
  );
}

/** Internal: a checkout's payment method is saved by the consumer `userId` (version = the method's saves so far). */
export function paymentMethodSavedEvent(checkoutId: string, merchantId: string, userId: string, version: number, at: string, livemode: boolean): DomainEvent {
  const object = { checkout_id: checkoutId, user_id: userId, saved_at: at };
  return envelope("payment_method.saved", { type: "payment_method", id: checkoutId, version }, merchantId, at, object, livemode);
}

/** Internal: a refund payout is final; the figures are the transaction's after it counted. */
export function refundPayoutSettledEvent(after: TransactionDoc, payout: RefundPayoutSnapshot, livemode: boolean): DomainEvent {
  return envelope("refund_payout.settled", { type: "transaction", id: after._id, version: after.version ?? 1 }, after.merchantId, after.updated_at, payout, livemode);
}
