import type { EventType } from "./index.ts";

/**
 * Which service publishes each event type (docs/events.md): the only one whose broker user a
 * subscriber accepts it from, so no other component can make a checkout `paid` or a refund
 * `completed` by publishing a look-alike. A `Record` over every type, so a new type does not
 * compile until it has its owner.
 */
export const EVENT_OWNERS: Readonly<Record<EventType, "payments" | "checkout" | "refunds">> = {
  "checkout.created": "checkout",
  "checkout.payment_method_saved": "checkout",
  "transaction.created": "payments",
  "transaction.completed": "payments",
  "transaction.failed": "payments",
  "subscription.renewed": "payments",
  "subscription.past_due": "payments",
  "subscription.cancelled": "payments",
  "subscription.unpaid": "payments",
  "payment_method.saved": "payments",
  "refund_payout.settled": "payments",
  "refund.requested": "refunds",
  "refund.approved": "refunds",
  "refund.rejected": "refunds",
  "refund.processing": "refunds",
  "refund.completed": "refunds",
  "refund.failed": "refunds",
};

/** The service that publishes `type`, or undefined for a type outside the catalogue. */
export function eventOwner(type: string): string | undefined {
  return Object.hasOwn(EVENT_OWNERS, type) ? EVENT_OWNERS[type as EventType] : undefined;
}
