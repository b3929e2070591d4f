import { EVENT_DEAD_LETTER_INDEXES, EVENT_DEAD_LETTERS } from "./event-delivery/event-dead-letters.ts";
import { PROCESSED_EVENTS, PROCESSED_EVENTS_INDEX } from "./outbox/processed-events.ts";
import { REPLY_LEDGER_COLLECTION, REPLY_LEDGER_INDEX } from "./reply-ledger/reply-ledger.ts";
import type { Store } from "./store.port.ts";

/**
 * The indexes of the collections every domain service shares (the RPC reply ledger, the events'
 * dead letters, the processed-event records), created if missing. The processes create them as
 * they open these collections; `payrail indexes` creates them ahead of a rollout with the
 * services' own. The embedded store's event queue is not here: a MongoDB-wire deployment runs on
 * RabbitMQ and never opens it.
 */
export async function createSharedIndexes(store: Store): Promise<void> {
  await store.collection(REPLY_LEDGER_COLLECTION).createIndex(REPLY_LEDGER_INDEX);
  for (const index of EVENT_DEAD_LETTER_INDEXES) await store.collection(EVENT_DEAD_LETTERS).createIndex(index);
  await store.collection(PROCESSED_EVENTS).createIndex(PROCESSED_EVENTS_INDEX);
}
