import type { Update } from "../store.port.ts";

/** What the outbox needs of an event: its id (the deduplication key) and when it happened. */
export interface OutboxEvent {
  id: string;
  type: string;
  created_at: string;
}

/**
 * The fields an aggregate's document carries for its unpublished events: `_outbox` maps event
 * id → event, `outboxPending` is what the relay's index finds. MongoDB without a replica set
 * (and FerretDB) has no multi-document transaction, so the events travel inside the document
 * whose change caused them: one conditional write stores both or neither.
 */
export interface OutboxFields {
  _outbox?: Record<string, OutboxEvent>;
  outboxPending?: boolean;
  /**
   * ISO 8601: the `created_at` of the events of the latest write that added some (the oldest of
   * them); the relay takes pending documents oldest first by it. A write that adds events to a document still pending moves it back:
   * the update cannot keep the older time in the same `$set` without reading it first.
   */
  outboxAt?: string;
  /**
   * The document is removed, and stays only until its last events are published: the write that
   * removed it stored them with this flag (`removeWithEvents`), and the relay deletes it once
   * they went. Readers treat it as gone (`NOT_REMOVED`).
   */
  outboxRemove?: boolean;
  /** Events the relay could never publish (they fail their schema): event id → event and reason. */
  _outboxDead?: Record<string, OutboxEvent & { reason: string; at: string }>;
}

/**
 * The index the relay queries by (pending documents, oldest first); it declares it on every
 * collection it serves. Collections created before it also keep the former `outbox_pending`.
 */
export const OUTBOX_INDEX = { keys: { outboxPending: 1, outboxAt: 1 }, name: "outbox_pending_at" } as const;

/** `update` plus the events it causes, to pass to the same findOneAndUpdate. */
export function withEvents(update: Update, events: readonly OutboxEvent[]): Update {
  if (events.length === 0) return update;
  const set: Record<string, unknown> = { ...update.$set, outboxPending: true, outboxAt: oldestOf(events) };
  for (const event of events) set[`_outbox.${assertEventId(event.id)}`] = event;
  return { ...update, $set: set };
}

/**
 * The update that removes a document together with the events of its removal (one conditional
 * write): a delete cannot carry an outbox, so the document stays as a tombstone that readers
 * skip (`NOT_REMOVED` in their filters) and the relay deletes once the events are published.
 */
export function removeWithEvents(events: readonly OutboxEvent[], update: Update = {}): Update {
  // Without events the relay still finds it (an empty outbox, pending) and deletes it at once.
  const none = events.length === 0 ? { _outbox: {}, outboxAt: new Date().toISOString() } : {};
  return withEvents({ ...update, $set: { ...update.$set, outboxRemove: true, outboxPending: true, ...none } }, events);
}

/** The filter part that leaves out documents removed with `removeWithEvents` whose events are still on their way. */
export const NOT_REMOVED = { outboxRemove: { $ne: true } } as const;

/** A new document carrying the events of its creation, for insertOne. */
export function insertWithEvents<T extends { _id: string }>(doc: T, events: readonly OutboxEvent[]): T & OutboxFields {
  if (events.length === 0) return doc;
  const outbox = { outboxPending: true, outboxAt: oldestOf(events), _outbox: Object.fromEntries(events.map((e) => [assertEventId(e.id), e])) };
  // Copied with Object.assign, not `{ ...doc, ...outbox }`: on Node 20, a spread followed by more
  // fields took ~10 µs for a checkout's 24 fields against ~1.7 µs (a micro-benchmark, 2026-11-30;
  // 1.7% of a Create's CPU in its profile). Object.assign would take an own `__proto__` key as
  // the copy's prototype, so a document with one keeps the spread.
  return Object.hasOwn(doc, "__proto__") ? { ...doc, ...outbox } : Object.assign({}, doc, outbox);
}

function oldestOf(events: readonly OutboxEvent[]): string {
  return events.map((e) => e.created_at).reduce((a, b) => (b < a ? b : a));
}

/** Event ids become field names: no dots or `$`, or the update would write somewhere else. */
function assertEventId(id: string): string {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) throw new Error(`outbox: event id "${id}" cannot be a field name`);
  return id;
}
