import { OUTBOX_INDEX, type Store } from "@payrail/store";
import { EventRepository } from "./data-access/event.repository.ts";
import { ENDPOINTS_COLLECTION, EndpointRepository } from "./data-access/endpoint.repository.ts";
import { DeliveryRepository } from "./data-access/delivery.repository.ts";

/**
 * Every index the webhooks service queries by, created if missing: by `start` before it consumes (so no
 * request meets a missing index), and by `payrail indexes` (the Helm chart's pre-upgrade Job) before
 * a rollout, so a new index over a large collection is built there, not in a starting pod.
 */
export async function createIndexes(store: Store): Promise<void> {
  await new EventRepository(store).ensureIndexes();
  await new EndpointRepository(store).ensureIndexes();
  await new DeliveryRepository(store).ensureIndexes();
  // The outbox relay of the endpoints' audit entries.
  await store.collection(ENDPOINTS_COLLECTION).createIndex(OUTBOX_INDEX);
}
