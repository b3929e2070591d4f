import type { Logger } from "@payrail/runtime";
import type { Store } from "../store.port.ts";
import { OUTBOX_INDEX, type OutboxEvent, type OutboxFields } from "./outbox-fields.ts";
import { runningRelays } from "./running-relays.ts";

type OutboxDoc = { _id: string } & OutboxFields;

export interface OutboxRelayOptions {
  store: Store;
  /** The collections whose documents carry events (see outbox-fields.ts). */
  collections: readonly string[];
  /** Resolves once the broker holds the event (publisher confirm); throws otherwise. */
  publish(event: OutboxEvent): Promise<void>;
  logger: Logger;
  /** How often the relay looks for events it was not told about (other processes, crashes). Default 1 s. */
  pollMs?: number;
  /** Documents taken per collection and pass. Default 100. */
  batch?: number;
}

export interface OutboxStats {
  published: number;
  failures: number;
  /** The outbox lag: age of the oldest event the last pass could not publish, 0 when none. */
  lagMs: number;
  /** From an event's creation to its publication, for the last event published. */
  lastDelayMs: number;
}

/**
 * Publishes the events documents carry, then removes them from the document: publish first,
 * mark after, so a crash in between publishes again on the next pass (at least once, never
 * lost; subscribers deduplicate by event id). A document's events go out in the order they
 * happened; a failed publish leaves that document for the next pass and goes on with the others.
 * `notify()` after a local write sends its events at once; the poll catches the rest. Several
 * replicas may run relays on the same collections: that can only publish an event twice.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private readonly counters: OutboxStats = { published: 0, failures: 0, lagMs: 0, lastDelayMs: 0 };

  constructor(private readonly options: OutboxRelayOptions) {}

  async start(): Promise<void> {
    for (const name of this.options.collections) await this.options.store.collection(name).createIndex(OUTBOX_INDEX);
    this.stopped = false;
    runningRelays.add(this);
    this.schedule(0);
  }

  get collections(): readonly string[] {
    return this.options.collections;
  }

  /** A local write stored events: send them now rather than at the next poll. */
  notify(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  stats(): OutboxStats {
    return { ...this.counters };
  }

  /** Stops polling and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    runningRelays.delete(this);
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass over every collection; exported for tests that drive the relay step by step. */
  async runOnce(): Promise<void> {
    let oldest = Infinity;
    for (const name of this.options.collections) {
      const collection = this.options.store.collection<OutboxDoc>(name);
      const docs = await collection.find({ outboxPending: true }, { limit: this.options.batch ?? 100 });
      for (const doc of docs) {
        const events = Object.values(doc._outbox ?? {}).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
        if (await this.send(name, events)) await this.markSent(name, doc._id, doc._outbox ?? {}, events);
        else for (const event of events) oldest = Math.min(oldest, Date.parse(event.created_at));
      }
    }
    this.counters.lagMs = oldest === Infinity ? 0 : Math.max(0, Date.now() - oldest);
  }

  private async send(collection: string, events: OutboxEvent[]): Promise<boolean> {
    for (const event of events) {
      try {
        await this.options.publish(event);
        this.counters.published++;
        this.counters.lastDelayMs = Math.max(0, Date.now() - Date.parse(event.created_at));
      } catch (err) {
        this.counters.failures++;
        this.options.logger.warn({ err, collection, eventId: event.id, type: event.type }, "outbox: publish failed; retried on the next pass");
        return false;
      }
    }
    return true;
  }

  /**
   * Marks the sent events. When the outbox still holds exactly what was read (the usual case),
   * one conditional write empties it and clears the pending flag. When a concurrent write added
   * an event meanwhile, that filter misses: the sent events are removed one by one and the
   * document stays pending for the next pass, so the new event is never dropped.
   */
  private async markSent(collection: string, id: string, outbox: Record<string, OutboxEvent>, events: OutboxEvent[]): Promise<void> {
    const col = this.options.store.collection<OutboxDoc>(collection);
    if (await col.findOneAndUpdate({ _id: id, _outbox: outbox }, { $set: { _outbox: {}, outboxPending: false } })) return;
    if (events.length > 0) {
      await col.findOneAndUpdate({ _id: id }, { $unset: Object.fromEntries(events.map((e) => [`_outbox.${e.id}`, ""])) });
    }
    await col.findOneAndUpdate({ _id: id, _outbox: {} }, { $set: { outboxPending: false } });
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.pass(), delayMs);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    if (this.stopped || this.running) return;
    this.running = this.runOnce().catch((err: unknown) => {
      this.counters.failures++;
      this.options.logger.warn({ err }, "outbox: pass failed; retried at the next poll");
    });
    await this.running;
    this.running = undefined;
    if (this.stopped) return;
    const rerun = this.again;
    this.again = false;
    this.schedule(rerun ? 0 : (this.options.pollMs ?? 1_000));
  }
}
