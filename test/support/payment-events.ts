import type { DomainEvent } from "@payrail/contracts";
import { prefixedHexId } from "@payrail/runtime";

/*
 * Payments' events as its outbox publishes them, for tests of their subscribers (checkout,
 * refunds) that play payments' part: each builder answers a new event (a new id), so the same
 * change published twice is two deliveries of one event only when the test reuses the object.
 */

const envelope = (type: DomainEvent["type"], aggregate: DomainEvent["aggregate"], merchantId: string, object: unknown): DomainEvent => ({
  id: prefixedHexId("evt_"),
  type,
  created_at: new Date().toISOString(),
  aggregate,
  livemode: false,
  merchant_id: merchantId,
  data: { object },
});

export function paymentMethodSaved(checkoutId: string, merchantId: string, version = 1): DomainEvent {
  return envelope("payment_method.saved", { type: "payment_method", id: checkoutId, version }, merchantId, { checkout_id: checkoutId, saved_at: new Date().toISOString() });
}

/** A transaction record of checkout number `checkoutNumber`, as payments' transaction.* events carry it. */
export function transactionRecord(checkoutNumber: number, status: "pending" | "completed" | "failed" | "cancelled", uuid = prefixedHexId("sc-"), amount = 107.5) {
  const at = new Date().toISOString();
  return {
    id: 1,
    transaction_uuid: uuid,
    processor_transaction_id: `transfer-${uuid}`,
    amount,
    user_id: "a".repeat(32),
    consumer_transaction_id: "c",
    merchant_transaction_id: "m",
    checkout_id: checkoutNumber,
    transaction_status: status,
    transaction_date_time: at,
    description: null,
    error: status === "failed" ? "R01" : null,
    amount_refunded: 0,
    created_at: at,
    updated_at: at,
  };
}

export function transactionEvent(record: ReturnType<typeof transactionRecord>, merchantId: string, version = 1): DomainEvent {
  const type = record.transaction_status === "pending" ? "transaction.created" : record.transaction_status === "completed" ? "transaction.completed" : "transaction.failed";
  return envelope(type, { type: "transaction", id: record.transaction_uuid, version }, merchantId, record);
}

export function refundPayoutSettled(
  payout: { refundId?: string; checkoutId: string; transactionUuid: string; status?: "completed" | "failed"; amountRefundedCents: number; fullyRefunded: boolean; attempt?: number },
  merchantId: string,
): DomainEvent {
  return envelope("refund_payout.settled", { type: "transaction", id: payout.transactionUuid, version: 3 }, merchantId, {
    refund_id: payout.refundId ?? prefixedHexId("rfd_"),
    attempt: payout.attempt ?? 1,
    transfer_id: `payout-${payout.transactionUuid}`,
    status: payout.status ?? "completed",
    transaction_uuid: payout.transactionUuid,
    checkout_id: payout.checkoutId,
    amount_refunded_cents: payout.amountRefundedCents,
    fully_refunded: payout.fullyRefunded,
  });
}

export function subscriptionCancelled(checkoutId: string, merchantId: string, transactionUuid: string): DomainEvent {
  return envelope("subscription.cancelled", { type: "subscription", id: checkoutId, version: 1 }, merchantId, {
    id: checkoutId,
    object: "subscription",
    checkout_id: checkoutId,
    status: "cancelled",
    transaction_uuid: transactionUuid,
  });
}
