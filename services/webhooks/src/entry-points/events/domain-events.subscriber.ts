import { EVENT_TYPES } from "@payrail/contracts";
import type { EventTransport } from "@payrail/messaging";
import { recordEvent } from "../../domain/fan-out.ts";
import { toEventDoc } from "../../domain/webhook-event.entity.ts";
import type { WebhooksDeps } from "../../domain/webhooks.deps.ts";

/**
 * Every domain event of the catalogue (EVENT_TYPES: not the internal ones services publish for
 * each other, such as payment_method.saved) becomes an event of its merchant: kept for the
 * events API and fanned out to their endpoints. Both steps are idempotent by id, so a repeated
 * or replayed event changes nothing; a failure throws, and the transport tries again.
 */
export function subscribeToDomainEvents(transport: EventTransport, deps: WebhooksDeps): Promise<void> {
  return transport.subscribe("webhooks", EVENT_TYPES, (event) => recordEvent(deps, toEventDoc(event)));
}
