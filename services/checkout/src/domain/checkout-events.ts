import type { DomainEvent } from "@payrail/contracts";
import { prefixedHexId } from "@payrail/runtime";
import type { CheckoutRecord } from "./checkout.entity.ts";
import { toCheckoutView } from "./checkout-view.ts";
import type { CheckoutEventsPort } from "./ports/checkout-events.port.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";

/** The catalogue's checkout events (docs/api-notes.md, Events and webhooks); the checkout's later changes publish none yet. */
export type CheckoutEventType = "checkout.created" | "checkout.payment_method_saved";

/** What the use cases that publish checkout events need. */
export interface CheckoutEventsDeps {
  checkouts: CheckoutsPort;
  /** Told after every write that stored events, so they are published at once. */
  events: CheckoutEventsPort;
  /** Whether this deployment moves real money: the `livemode` of the checkout events. */
  livemode: boolean;
}

/** The checkout's version as stored; 0 for one written before checkouts carried one. */
export function versionOf(checkout: CheckoutRecord): number {
  return checkout.version ?? 0;
}

/**
 * The event of a change, built from the checkout as it is AFTER the change (the document about
 * to be written), so its snapshot (what Get Checkout then answers) and version are what the
 * write stores. `created_at` is the change's time (the record's `updatedAt`).
 */
export function checkoutEvent(type: CheckoutEventType, after: CheckoutRecord, livemode: boolean): DomainEvent {
  return {
    id: prefixedHexId("evt_"),
    type,
    created_at: after.updatedAt,
    aggregate: { type: "checkout", id: after._id, version: versionOf(after) },
    livemode,
    merchant_id: after.merchantId,
    data: { object: withoutConsumerContacts(toCheckoutView(after)) },
  };
}

/**
 * The checkout as its events carry it: without `customer` (the consumer's email), which events
 * would take to every webhook endpoint; Get Checkout still echoes it to its merchant.
 */
function withoutConsumerContacts(view: ReturnType<typeof toCheckoutView>): Record<string, unknown> {
  const { customer: _customer, ...rest } = view as Record<string, unknown>;
  return rest;
}
