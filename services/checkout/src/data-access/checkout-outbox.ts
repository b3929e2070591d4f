import type { DomainEvent } from "@payrail/contracts";
import type { OutboxEvent } from "@payrail/store";

/**
 * How a checkout event sits in the checkout's outbox: its envelope's keys for the relay, the
 * whole event as JSON text. The snapshot is the checkout as sent, and FerretDB cannot store
 * nested arrays (`items[].category`), the reason the checkout keeps its body as text too.
 */
export interface StoredCheckoutEvent extends OutboxEvent {
  json: string;
}

export function toStoredEvent(event: DomainEvent): StoredCheckoutEvent {
  return { id: event.id, type: event.type, created_at: event.created_at, json: JSON.stringify(event) };
}

/** The event a stored one holds, for the relay to publish. */
export function fromStoredEvent(stored: OutboxEvent): DomainEvent {
  // Only toStoredEvent writes the checkouts' outbox; publish checks the event against its type's schema again.
  return JSON.parse((stored as StoredCheckoutEvent).json) as DomainEvent;
}
