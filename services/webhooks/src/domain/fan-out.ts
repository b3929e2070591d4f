import type { DomainEvent } from "@payrail/contracts";
import type { DeliveryDoc } from "./delivery.entity.ts";
import { takesType, type EventDoc } from "./webhook-event.entity.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/**
 * Creates one delivery of `event` for each enabled endpoint of its merchant that takes its
 * type. A delivery's id is the event's and endpoint's, so fanning the same event out twice
 * (it arrived twice, or on two replicas) creates nothing new: one delivery per endpoint.
 * `redelivery` names an explicit resend, which gets deliveries of its own; its audit entry rides
 * the first delivery's insert (a resend that reaches no endpoint writes nothing and records
 * nothing). Answers the endpoints.
 */
export async function fanOut(deps: WebhooksDeps, event: EventDoc, redelivery?: string, audit: readonly DomainEvent[] = []): Promise<string[]> {
  const endpoints = (await deps.endpoints.enabledOf(event.merchantId)).filter((e) => takesType(e.enabledEvents, event.type));
  const at = deps.now().toISOString();
  for (const [i, endpoint] of endpoints.entries()) {
    const delivery: DeliveryDoc = {
      _id: [event._id, endpoint._id, ...(redelivery ? [redelivery] : [])].join("."),
      eventId: event._id,
      eventType: event.type,
      endpointId: endpoint._id,
      merchantId: event.merchantId,
      status: "pending",
      attempts: 0,
      dueAt: at,
      leaseId: null,
      createdAt: at,
      updatedAt: at,
    };
    await deps.deliveries.insert(delivery, i === 0 ? audit : []);
  }
  if (endpoints.length > 0) deps.deliveriesCreated();
  if (endpoints.length > 0 && audit.length > 0) deps.outbox.written();
  return endpoints.map((e) => e._id);
}

/** Keeps an event for its merchant's events API (with `audit`, a test event's entry, in the same insert) and sends it to their endpoints. */
export async function recordEvent(deps: WebhooksDeps, event: EventDoc, audit: readonly DomainEvent[] = []): Promise<void> {
  if ((await deps.events.insert(event, audit)) && audit.length > 0) deps.outbox.written();
  // Fanned out even when the event was stored before: a crash may have come in between.
  await fanOut(deps, event);
}
