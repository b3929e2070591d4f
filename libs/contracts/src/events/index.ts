import { z } from "zod";
import { CheckoutCreatedEvent } from "./checkout-created.event.ts";
import { CheckoutPaymentMethodSavedEvent } from "./checkout-payment-method-saved.event.ts";
import { TransactionCreatedEvent } from "./transaction-created.event.ts";
import { TransactionCompletedEvent } from "./transaction-completed.event.ts";
import { TransactionFailedEvent } from "./transaction-failed.event.ts";
import { TransactionReturnedEvent } from "./transaction-returned.event.ts";
import { MerchantReturnRateWarningEvent } from "./merchant-return-rate-warning.event.ts";
import { SubscriptionRenewedEvent } from "./subscription-renewed.event.ts";
import { SubscriptionPastDueEvent } from "./subscription-past-due.event.ts";
import { SubscriptionCancelledEvent } from "./subscription-cancelled.event.ts";
import { SubscriptionUnpaidEvent } from "./subscription-unpaid.event.ts";
import { SubscriptionReactivatedEvent } from "./subscription-reactivated.event.ts";
import { SubscriptionUpcomingEvent } from "./subscription-upcoming.event.ts";
import { SubscriptionUpdatedEvent } from "./subscription-updated.event.ts";
import { RefundRequestedEvent } from "./refund-requested.event.ts";
import { RefundApprovedEvent } from "./refund-approved.event.ts";
import { RefundRejectedEvent } from "./refund-rejected.event.ts";
import { RefundProcessingEvent } from "./refund-processing.event.ts";
import { RefundCompletedEvent } from "./refund-completed.event.ts";
import { RefundFailedEvent } from "./refund-failed.event.ts";
import { RefundOverReturnedEvent } from "./refund-over-returned.event.ts";
import { PaymentMethodSavedEvent } from "./payment-method-saved.event.ts";
import { RefundPayoutSettledEvent } from "./refund-payout-settled.event.ts";
import { MandateCreatedEvent } from "./mandate-created.event.ts";
import { MandateRevokedEvent } from "./mandate-revoked.event.ts";
import { PaymentMethodBlockedEvent } from "./payment-method-blocked.event.ts";
import { ReviewOpenedEvent } from "./review-opened.event.ts";
import { ReviewClosedEvent } from "./review-closed.event.ts";
import { PayoutCreatedEvent, PayoutFailedEvent, PayoutPaidEvent } from "./payout.event.ts";
import { PayoutTransferSettledEvent } from "./payout-transfer-settled.event.ts";
import {
  CheckoutAuditEntryEvent,
  IdentityAuditEntryEvent,
  LedgerAuditEntryEvent,
  PaymentsAuditEntryEvent,
  RefundsAuditEntryEvent,
  WebhooksAuditEntryEvent,
} from "./audit-entry.event.ts";
import { BankAccountValidatedEvent, BankAccountValidationRequiredEvent, MicroDepositsSentEvent } from "./bank-account-validation.event.ts";

export * from "./domain-event.ts";
export * from "./event-snapshots.ts";
export * from "./checkout-created.event.ts";
export * from "./checkout-payment-method-saved.event.ts";
export * from "./transaction-created.event.ts";
export * from "./transaction-completed.event.ts";
export * from "./transaction-failed.event.ts";
export * from "./transaction-returned.event.ts";
export * from "./merchant-return-rate-warning.event.ts";
export * from "./subscription-renewed.event.ts";
export * from "./subscription-past-due.event.ts";
export * from "./subscription-cancelled.event.ts";
export * from "./subscription-unpaid.event.ts";
export * from "./subscription-reactivated.event.ts";
export * from "./subscription-upcoming.event.ts";
export * from "./subscription-updated.event.ts";
export * from "./refund-requested.event.ts";
export * from "./refund-approved.event.ts";
export * from "./refund-rejected.event.ts";
export * from "./refund-processing.event.ts";
export * from "./refund-completed.event.ts";
export * from "./refund-failed.event.ts";
export * from "./refund-over-returned.event.ts";
export * from "./payment-method-saved.event.ts";
export * from "./refund-payout-settled.event.ts";
export * from "./mandate-created.event.ts";
export * from "./mandate-revoked.event.ts";
export * from "./payment-method-blocked.event.ts";
export * from "./review-opened.event.ts";
export * from "./review-closed.event.ts";
export * from "./bank-account-validation.event.ts";
export * from "./payout.event.ts";
export * from "./payout-transfer-settled.event.ts";
export * from "./audit-entry.event.ts";

/**
 * The event catalogue (docs/api-notes.md, Events and webhooks): every type a service may publish, each with its schema.
 * Publishing checks an event against its type's schema, and subscribers get it checked again.
 */
const CATALOGUE = [
  CheckoutCreatedEvent,
  CheckoutPaymentMethodSavedEvent,
  TransactionCreatedEvent,
  TransactionCompletedEvent,
  TransactionFailedEvent,
  TransactionReturnedEvent,
  SubscriptionRenewedEvent,
  SubscriptionPastDueEvent,
  SubscriptionCancelledEvent,
  SubscriptionUnpaidEvent,
  SubscriptionReactivatedEvent,
  SubscriptionUpcomingEvent,
  SubscriptionUpdatedEvent,
  RefundRequestedEvent,
  RefundApprovedEvent,
  RefundRejectedEvent,
  RefundProcessingEvent,
  RefundCompletedEvent,
  RefundFailedEvent,
  RefundOverReturnedEvent,
  MerchantReturnRateWarningEvent,
  MandateCreatedEvent,
  MandateRevokedEvent,
  PaymentMethodBlockedEvent,
  ReviewOpenedEvent,
  ReviewClosedEvent,
  BankAccountValidationRequiredEvent,
  BankAccountValidatedEvent,
  PayoutCreatedEvent,
  PayoutPaidEvent,
  PayoutFailedEvent,
] as const;

/**
 * Events services publish for each other only: they carry what one service's change means for
 * another (no RPC call-backs), and are never listed in the events API or sent to webhooks.
 */
const INTERNAL = [
  PaymentMethodSavedEvent,
  RefundPayoutSettledEvent,
  MicroDepositsSentEvent,
  PayoutTransferSettledEvent,
  IdentityAuditEntryEvent,
  WebhooksAuditEntryEvent,
  RefundsAuditEntryEvent,
  CheckoutAuditEntryEvent,
  PaymentsAuditEntryEvent,
  LedgerAuditEntryEvent,
] as const;

/** Any event, of the catalogue or internal: narrow it on `type` to get its `data` typed. */
export const AnyDomainEvent = z.discriminatedUnion("type", [...CATALOGUE, ...INTERNAL]);
export type AnyDomainEvent = z.infer<typeof AnyDomainEvent>;

export type EventType = AnyDomainEvent["type"];

/** Every type of the catalogue (docs/api-notes.md, Events and webhooks: what merchants see), in catalogue order. */
export const EVENT_TYPES: readonly EventType[] = CATALOGUE.map((schema) => schema.shape.type.value);

/** The internal types, between services only. */
export const INTERNAL_EVENT_TYPES: readonly EventType[] = INTERNAL.map((schema) => schema.shape.type.value);

/** The event of type `T`. */
export type EventOf<T extends EventType> = Extract<AnyDomainEvent, { type: T }>;

/**
 * Which service publishes each event type (docs/events.md): the only one whose broker user a
 * subscriber accepts it from, so no other component can make a checkout `paid` or a refund
 * `completed` by publishing a look-alike. A `Record` over every type, so a new type does not
 * compile until it has its owner.
 */
export const EVENT_OWNERS: Readonly<Record<EventType, "payments" | "checkout" | "refunds" | "ledger" | "identity" | "webhooks">> = {
  "checkout.created": "checkout",
  "checkout.payment_method_saved": "checkout",
  "transaction.created": "payments",
  "transaction.completed": "payments",
  "transaction.failed": "payments",
  "transaction.returned": "payments",
  "merchant.return_rate_warning": "payments",
  "mandate.created": "payments",
  "mandate.revoked": "payments",
  "payment_method.blocked": "payments",
  "review.opened": "payments",
  "review.closed": "payments",
  "bank_account.validation_required": "payments",
  "bank_account.validated": "payments",
  "bank_account.micro_deposits_sent": "payments",
  "subscription.renewed": "payments",
  "subscription.past_due": "payments",
  "subscription.cancelled": "payments",
  "subscription.unpaid": "payments",
  "subscription.reactivated": "payments",
  "subscription.upcoming": "payments",
  "subscription.updated": "payments",
  "payment_method.saved": "payments",
  "refund_payout.settled": "payments",
  "refund.requested": "refunds",
  "refund.approved": "refunds",
  "refund.rejected": "refunds",
  "refund.processing": "refunds",
  "refund.completed": "refunds",
  "refund.failed": "refunds",
  "refund.over_returned": "refunds",
  "payout_transfer.settled": "payments",
  "payout.created": "ledger",
  "payout.paid": "ledger",
  "payout.failed": "ledger",
  "audit_entry.identity": "identity",
  "audit_entry.webhooks": "webhooks",
  "audit_entry.refunds": "refunds",
  "audit_entry.checkout": "checkout",
  "audit_entry.payments": "payments",
  "audit_entry.ledger": "ledger",
};

/** The service that publishes `type`, or undefined for a type outside the catalogue. */
export function eventOwner(type: string): string | undefined {
  return Object.hasOwn(EVENT_OWNERS, type) ? EVENT_OWNERS[type as EventType] : undefined;
}
