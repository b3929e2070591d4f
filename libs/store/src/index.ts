/**
 * @payrail/store: the document-store port and its two adapters. The only package that
 * imports `mongodb` and `better-sqlite3`; services depend on the port (store.port.ts) and get a Store from
 * createStore at their composition root. The MongoDB adapter itself is `@payrail/store/mongo`.
 */
export * from "./store.port.ts";
export { createEmbeddedStore, type EmbeddedStoreOptions } from "./embedded/embedded.store.ts";
export { embeddedStoreHoldsData } from "./embedded/embedded-data.ts";
export { createStore, type StoreConfig } from "./create-store.ts";
export { withIndexCheck, type IndexCheckOptions } from "./index-coverage/index-checked.store.ts";
export { isServed, UnindexedQueryError } from "./index-coverage/index-coverage.rule.ts";
export { withEvents, insertWithEvents, removeWithEvents, NOT_REMOVED, OUTBOX_INDEX, type OutboxEvent, type OutboxFields } from "./outbox/outbox-fields.ts";
export { OutboxRelay, type OutboxRelayOptions, type OutboxStats } from "./outbox/outbox-relay.ts";
export { createProcessedEvents, PROCESSED_EVENTS, PROCESSED_EVENTS_KEEP_MS, type ProcessedEvents } from "./outbox/processed-events.ts";
export {
  createEventDeadLetters,
  EVENT_DEAD_LETTERS,
  EVENT_DEAD_LETTER_INDEXES,
  type DeadLetterInput,
  type DeadLetterStatus,
  type EventDeadLetter,
  type EventDeadLetters,
} from "./event-delivery/event-dead-letters.ts";
export { createEventQueues, EVENT_BINDINGS, EVENT_QUEUE, type EventQueues } from "./event-delivery/event-queues.ts";
export { runningRelays, type RunningRelay } from "./outbox/running-relays.ts";
export { insertIfAbsent, insertOrGet } from "./insert-once.ts";
export { centsWithin, olderThan, widenIndex, within } from "./shared/list-filters.ts";
export { createRetentionSweep, type RetentionSweep } from "./shared/retention-sweep.ts";
export { createReplyLedger, REPLY_LEDGER_COLLECTION, type LedgerHolder } from "./reply-ledger/reply-ledger.ts";
export { SequenceBlocks } from "./shared/sequence-blocks.ts";
export { createSharedIndexes } from "./shared-indexes.ts";
export { JobLeases, type FencedLease } from "./shared/job-leases.ts";
