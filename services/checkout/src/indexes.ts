import { OUTBOX_INDEX, type Store } from "@payrail/store";
import { CHECKOUTS_COLLECTION, CheckoutRepository } from "./data-access/checkout.repository.ts";
import { LINK_TOKENS_COLLECTION, LinkTokenRepository } from "./data-access/link-token.repository.ts";

/** The collections whose documents carry the events the outbox relay publishes (each gets OUTBOX_INDEX). */
export const OUTBOX_COLLECTIONS = [CHECKOUTS_COLLECTION, LINK_TOKENS_COLLECTION];

/**
 * Every index the checkout service queries by, created if missing: by `start` before it consumes (so no
 * request meets a missing index), and by `payrail indexes` (the Helm chart's pre-upgrade Job) before
 * a rollout, so a new index over a large collection is built there, not in a starting pod.
 */
export async function createIndexes(store: Store): Promise<void> {
  await new CheckoutRepository(store).ensureIndexes();
  await new LinkTokenRepository(store).ensureIndexes();
  for (const name of OUTBOX_COLLECTIONS) await store.collection(name).createIndex(OUTBOX_INDEX);
}
