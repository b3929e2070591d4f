import { insertIfAbsent } from "../insert-once.ts";
import type { Store } from "../store.port.ts";

/** Embedded mode's event queues: one document per subscribing service and event not yet handled. */
export const EVENT_QUEUE = "event_queue";
/** The patterns each subscribing service bound its queue to, kept across restarts. */
export const EVENT_BINDINGS = "event_bindings";

interface QueuedEventDoc {
  /** `<service>/<event id>`: a repeat of the same event for the same service is one document. */
  _id: string;
  service: string;
  eventId: string;
  body: string;
  attempt: number;
  firstFailedAt?: number;
  /** ISO 8601: when it was queued; the order a restart delivers the backlog in. */
  queuedAt: string;
}

interface BindingDoc {
  /** `<service>/<pattern>`: one document per binding, so binding is one insert, never a read-modify-write. */
  _id: string;
  service: string;
  pattern: string;
}

/** At most this many bindings and this many queued events per service are reloaded. */
const MAX_BINDINGS = 10_000;
const MAX_RELOAD = 100_000;

/**
 * libs/messaging's `DurableEventQueues` over a Store (structurally), for the in-process bus:
 * what RabbitMQ's durable queues and bindings are on a broker. An event is inserted for each
 * bound service that did not handle it at once, before its publish resolves (insert-if-absent,
 * so a republished event is one document), its attempt updated on a failure, and deleted once
 * handled or dead-lettered.
 * Index `service` + `queuedAt` serves the reload at start.
 */
export async function createEventQueues(store: Store) {
  const queued = store.collection<QueuedEventDoc>(EVENT_QUEUE);
  const bindings = store.collection<BindingDoc>(EVENT_BINDINGS);
  await queued.createIndex({ keys: { service: 1, queuedAt: 1 }, name: "event_queue_service" });
  const key = (service: string, eventId: string) => `${service}/${eventId}`;

  return {
    async bindings(): Promise<{ service: string; patterns: string[] }[]> {
      const byService = new Map<string, string[]>();
      for (const b of await bindings.find({}, { sort: { _id: 1 }, limit: MAX_BINDINGS })) byService.set(b.service, [...(byService.get(b.service) ?? []), b.pattern]);
      return [...byService].map(([service, patterns]) => ({ service, patterns }));
    },

    /** Adds bindings, like a broker's: a binding is only ever added, and adding one twice keeps one. */
    async bind(service: string, patterns: readonly string[]): Promise<void> {
      await Promise.all(patterns.map((pattern) => insertIfAbsent(bindings, { _id: `${service}/${pattern}`, service, pattern })));
    },

    async enqueue(services: readonly string[], eventId: string, body: string, retry?: { attempt: number; firstFailedAt: number }): Promise<void> {
      const queuedAt = new Date().toISOString();
      const attempt = { attempt: 1, ...retry };
      await Promise.all(services.map((service) => insertIfAbsent(queued, { _id: key(service, eventId), service, eventId, body, ...attempt, queuedAt })));
    },

    async pending(service: string) {
      const found = await queued.find({ service }, { sort: { queuedAt: 1 }, limit: MAX_RELOAD });
      return found.map((doc) => ({ eventId: doc.eventId, body: doc.body, attempt: doc.attempt, firstFailedAt: doc.firstFailedAt }));
    },

    async retryLater(service: string, eventId: string, attempt: number, firstFailedAt: number): Promise<void> {
      await queued.findOneAndUpdate({ _id: key(service, eventId) }, { $set: { attempt, firstFailedAt } });
    },

    async remove(service: string, eventId: string): Promise<void> {
      await queued.deleteOne({ _id: key(service, eventId) });
    },
  };
}

export type EventQueues = Awaited<ReturnType<typeof createEventQueues>>;
