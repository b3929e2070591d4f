import { OUTBOX_INDEX, type Store } from "@payrail/store";
import { EVENTS_COLLECTION, EventRepository } from "./data-access/event.repository.ts";
import { ENDPOINTS_COLLECTION, EndpointRepository } from "./data-access/endpoint.repository.ts";
import { DELIVERIES_COLLECTION, DeliveryRepository } from "./data-access/delivery.repository.ts";

/** The collections whose documents carry audit entries: endpoints' changes, test events, redeliveries. */
export const WEBHOOKS_OUTBOXES = [ENDPOINTS_COLLECTION, EVENTS_COLLECTION, DELIVERIES_COLLECTION] as const;

/**
 * Every index the webhooks service queries by, created if missing: by `start` before it consumes (so no
 * request meets a missing index), and by `payrail indexes` (the Helm chart's pre-upgrade Job) before
 * a rollout, so a new index over a large collection is built there, not in a starting pod.
 */
export async function createIndexes(store: Store): Promise<void> {
  await new EventRepository(store).ensureIndexes();
  await new EndpointRepository(store).ensureIndexes();
  await new DeliveryRepository(store).ensureIndexes();
  // The outbox relay of the audit entries.
  for (const name of WEBHOOKS_OUTBOXES) await store.collection(name).createIndex(OUTBOX_INDEX);
}
