import { OUTBOX_INDEX, type Store } from "@payrail/store";
import { REFUNDS_COLLECTION, RefundRepository } from "./data-access/refund.repository.ts";

/** The collections whose documents carry the events the outbox relay publishes (each gets OUTBOX_INDEX). */
export const OUTBOX_COLLECTIONS = [REFUNDS_COLLECTION];

/**
 * Every index the refunds service queries by, created if missing: by `start` before it consumes (so no
 * request meets a missing index), and by `payrail indexes` (the Helm chart's pre-upgrade Job) before
 * a rollout, so a new index over a large collection is built there, not in a starting pod.
 */
export async function createIndexes(store: Store): Promise<void> {
  await new RefundRepository(store).ensureIndexes();
  for (const name of OUTBOX_COLLECTIONS) await store.collection(name).createIndex(OUTBOX_INDEX);
}
