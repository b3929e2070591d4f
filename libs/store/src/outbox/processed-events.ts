import type { IndexSpec, Store } from "../store.port.ts";
import { insertIfAbsent } from "../insert-once.ts";
import { createRetentionSweep } from "../shared/retention-sweep.ts";

interface ProcessedEvent {
  _id: string;
  /** ISO 8601: when the event was applied; the sweep's key (index `processed_at`). */
  processedAt: string;
}

/** The collection where subscribers remember the events they applied. */
export const PROCESSED_EVENTS = "processed_events";
/** The sweep's index: the oldest records first. */
export const PROCESSED_EVENTS_INDEX: IndexSpec = { keys: { processedAt: 1 }, name: "processed_at" };
/**
 * How long an applied event is remembered: far longer than any redelivery or retry (minutes to
 * hours) and as long as the events API keeps an event (30 days, a replay from its dead-letter
 * queue included). Past it a duplicate would be applied again, which the subscribers' forward-only
 * writes make harmless anyway; remembering for ever only grew the collection with every order.
 */
export const PROCESSED_EVENTS_KEEP_MS = 30 * 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60_000;
/** Records deleted per pass; a sweep runs passes until one comes back short. */
const SWEEP_BATCH = 20_000;

export interface ProcessedEvents {
  /**
   * Applies `apply` once per event id: an event seen before is skipped; otherwise it is applied,
   * then remembered. A crash between the two applies it again on redelivery, so `apply` must
   * itself only move state forward (a conditional write on the expected state or version), which
   * makes that harmless. Answers whether it applied the event.
   */
  applyOnce(eventId: string, apply: () => Promise<void>): Promise<boolean>;
}

/**
 * A subscribing service's memory of the events it applied (one record per service and event
 * id). Records older than `keepMs` are deleted by a sweep that starts behind `applyOnce` at most
 * once a minute and runs bounded passes, on the `processed_at` index, until it has caught up:
 * the store has no TTL index (FerretDB v1 refuses `expireAfterSeconds`).
 */
export async function createProcessedEvents(
  store: Store,
  service: string,
  options: { keepMs?: number; now?: () => number; sweepBatch?: number } = {},
): Promise<ProcessedEvents> {
  const { keepMs = PROCESSED_EVENTS_KEEP_MS, now = Date.now } = options;
  const processed = store.collection<ProcessedEvent>(PROCESSED_EVENTS);
  await processed.createIndex(PROCESSED_EVENTS_INDEX);
  const sweep = createRetentionSweep({
    collection: processed,
    field: "processedAt",
    before: () => new Date(now() - keepMs).toISOString(),
    batch: options.sweepBatch ?? SWEEP_BATCH,
    everyMs: SWEEP_EVERY_MS,
    now,
  });

  return {
    async applyOnce(eventId, apply) {
      const key = `${service}/${eventId}`;
      if (await processed.findOne({ _id: key })) return false;
      await apply();
      const applied = await insertIfAbsent(processed, { _id: key, processedAt: new Date(now()).toISOString() });
      // Behind the event, never in its way: a failed sweep is tried again a minute later.
      sweep.due();
      return applied;
    },
  };
}
