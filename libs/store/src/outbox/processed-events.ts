import type { Store } from "../store.port.ts";
import { insertIfAbsent } from "../insert-once.ts";

interface ProcessedEvent {
  _id: string;
  processedAt: string;
}

/** The collection where subscribers remember the events they applied. */
export const PROCESSED_EVENTS = "processed_events";

/**
 * Applies `apply` once per (service, event id), for subscribers of at-least-once events: an
 * event seen before is skipped; otherwise it is applied, then remembered. A crash between the
 * two applies it again on redelivery, so `apply` must itself only move state forward (a
 * conditional write on the expected state or version), which makes that harmless. Answers
 * whether it applied the event.
 */
export async function applyOnce(store: Store, service: string, eventId: string, apply: () => Promise<void>): Promise<boolean> {
  const processed = store.collection<ProcessedEvent>(PROCESSED_EVENTS);
  const key = `${service}/${eventId}`;
  if (await processed.findOne({ _id: key })) return false;
  await apply();
  return insertIfAbsent(processed, { _id: key, processedAt: new Date().toISOString() });
}
