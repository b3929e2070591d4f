import type { Logger } from "@payrail/runtime";
import type { Collection, Filter, Store, Update } from "../store.port.ts";
import { createEventDeadLetters, type EventDeadLetters } from "../event-delivery/event-dead-letters.ts";
import { OUTBOX_INDEX, type OutboxEvent, type OutboxFields } from "./outbox-fields.ts";
import { runningRelays } from "./running-relays.ts";
import { settleAll } from "../shared/settle-all.ts";

type OutboxDoc = { _id: string } & OutboxFields;

export interface OutboxRelayOptions {
  store: Store;
  /** The collections whose documents carry events (see outbox-fields.ts). */
  collections: readonly string[];
  /**
   * Resolves once the broker holds the event (publisher confirm); throws otherwise. An error
   * named `EventCannotApply` (libs/messaging's, thrown for an event that fails its schema)
   * means no retry can publish it: the event is dead-lettered instead of retried.
   */
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
  /** Events refused for good (they fail their schema), moved out of the outbox and recorded. */
  deadLettered: number;
}

/** What one document's events came to in a pass. */
interface Sent {
  sent: OutboxEvent[];
  dead: { event: OutboxEvent; reason: string }[];
  /** A publish failed for a passing reason: the rest of the document waits for the next pass. */
  interrupted: boolean;
}

/**
 * Publishes the events documents carry, then removes them from the document: publish first,
 * mark after, so a crash in between publishes again on the next pass (at least once, never
 * lost; subscribers deduplicate by event id). A document's events go out in the order they
 * happened; a failed publish leaves that document for the next pass and goes on with the others.
 * Pending documents are taken oldest first (`outboxAt`, OUTBOX_INDEX), so a backlog drains in
 * order. An event refused for good (it fails its schema) is a poison: it is moved out of the
 * outbox into `_outboxDead` and recorded in the event dead letters (listed by `payrail events
 * dead-letters`), so it holds up neither its own document's other events nor any other document.
 * `notify()` after a local write sends its events at once; the poll catches the rest. The
 * documents of a pass go out side by side, each document's events one after the other: a
 * publish waits for its confirm, and one round trip per event kept a backlog draining at the
 * broker's latency. A pass that took a full batch and sent all of it is followed by the next at
 * once, so a backlog (a restart, a burst of writes) drains at the relay's pace, not one batch
 * per poll; what bounds it is `publish`, which resolves only once the event is held (the
 * broker's confirm, or the in-process bus's subscribers having handled or stored it). Several replicas
 * may run relays on the same collections: that can only publish an event twice.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** The last pass took a full batch and nothing failed: more is waiting, so the next pass starts at once. */
  private backlog = false;
  private stopped = true;
  private readonly counters: OutboxStats = { published: 0, failures: 0, lagMs: 0, lastDelayMs: 0, deadLettered: 0 };
  private deadLetters: EventDeadLetters | undefined;

  constructor(private readonly options: OutboxRelayOptions) {}

  async start(): Promise<void> {
    for (const name of this.options.collections) await this.options.store.collection(name).createIndex(OUTBOX_INDEX);
    this.deadLetters = await createEventDeadLetters(this.options.store);
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
    let full = false;
    const limit = this.options.batch ?? 100;
    for (const name of this.options.collections) {
      const collection = this.options.store.collection<OutboxDoc>(name);
      const docs = await collection.find({ outboxPending: true }, { sort: { outboxAt: 1 }, limit });
      if (docs.length === limit) full = true;
      // Started oldest first, so one channel's publishes still leave in the outbox's order. All
      // settle before a failure (the store away) ends the pass, so stop() waits for every one.
      const relayed = await Promise.allSettled(docs.map((doc) => this.relayDocument(name, doc)));
      const marks: Mark[] = [];
      for (const outcome of relayed) {
        if (outcome.status === "fulfilled") {
          oldest = Math.min(oldest, outcome.value.oldest);
          if (outcome.value.mark) marks.push(outcome.value.mark);
        }
      }
      // The documents whose events all went are marked together, also when another failed: a
      // mark left out only publishes its events again.
      await this.markAll(name, marks);
      for (const outcome of relayed) if (outcome.status === "rejected") throw outcome.reason;
    }
    this.counters.lagMs = oldest === Infinity ? 0 : Math.max(0, Date.now() - oldest);
    // A failed publish waits for the poll instead: a broker that is away would otherwise be asked in a loop.
    this.backlog = full && oldest === Infinity;
  }

  /**
   * Sends one document's events in order. A document whose events all went and that stays comes
   * back with its mark, which the pass writes with the others'; any other outcome is settled
   * here. Also answers when its oldest unsent event was created (Infinity when none is left).
   */
  private async relayDocument(name: string, doc: OutboxDoc): Promise<Relayed> {
    const events = Object.values(doc._outbox ?? {}).sort(inCreationOrder);
    const result = await this.send(name, events);
    const gone = went(result);
    if (!result.interrupted && doc.outboxRemove !== true) return { oldest: Infinity, ...(gone.length > 0 && { mark: { doc, result } }) };
    // A removed document (removeWithEvents) goes once its events went: at once when nothing was
    // added meanwhile, else once markSent has emptied its outbox.
    const removed = doc.outboxRemove === true && !result.interrupted;
    const col = this.options.store.collection<OutboxDoc>(name);
    if (removed && (await col.deleteOne({ _id: doc._id, _outbox: doc._outbox ?? {} }))) return { oldest: Infinity };
    if (gone.length > 0) await this.markSent(name, doc, result);
    if (removed) await col.deleteOne({ _id: doc._id, _outbox: {}, outboxRemove: true });
    if (!result.interrupted) return { oldest: Infinity };
    const done = new Set(gone.map((e) => e.id));
    let oldest = Infinity;
    for (const event of events) if (!done.has(event.id)) oldest = Math.min(oldest, Date.parse(event.created_at));
    return { oldest };
  }

  private async send(collection: string, events: OutboxEvent[]): Promise<Sent> {
    const result: Sent = { sent: [], dead: [], interrupted: false };
    for (const event of events) {
      try {
        await this.options.publish(event);
        this.counters.published++;
        this.counters.lastDelayMs = Math.max(0, Date.now() - Date.parse(event.created_at));
        result.sent.push(event);
      } catch (err) {
        this.counters.failures++;
        if (isPermanent(err)) {
          const reason = (err as Error).message.slice(0, 1_000);
          this.options.logger.error({ collection, eventId: event.id, type: event.type, reason }, "outbox: event refused for good; dead-lettered");
          // Recorded before it leaves the outbox: a crash in between records it twice, never loses it.
          await this.deadLetters?.put({ service: `outbox:${collection}`, eventId: event.id, type: event.type, reason, attempts: 1, body: JSON.stringify(event) });
          this.counters.deadLettered++;
          result.dead.push({ event, reason });
          continue;
        }
        this.options.logger.warn({ err, collection, eventId: event.id, type: event.type }, "outbox: publish failed; retried on the next pass");
        result.interrupted = true;
        return result;
      }
    }
    return result;
  }

  /**
   * Removes the sent and dead-lettered events (the dead ones kept in `_outboxDead`). When the
   * outbox still holds exactly what was read and all of it went (the usual case), one
   * conditional write empties it and clears the pending flag. When a concurrent write added an
   * event meanwhile, or a publish failed part way, the events that went are removed one by one
   * and the pending flag is cleared only if the outbox is then empty, so no event is dropped.
   */
  private async markSent(collection: string, doc: OutboxDoc, result: Sent): Promise<void> {
    const col = this.options.store.collection<OutboxDoc>(collection);
    const at = new Date().toISOString();
    if (!result.interrupted && (await col.findOneAndUpdate(asRead(doc), marked(result, at)))) return;
    await this.markOneByOne(col, doc._id, result, at);
  }

  /**
   * markSent for the documents of a pass whose events all went, in one `updateEach` (one round
   * trip on MongoDB). When not every outbox held still, the store does not say which moved: a
   * read of each by `_id` (not one `$in`, which FerretDB answers with a table scan) finds those
   * that still hold an event that went (a write added an event beside it), and they are marked
   * one by one. The others were emptied by this write or another relay's, and an event id, once
   * gone, never comes back.
   */
  private async markAll(collection: string, marks: readonly Mark[]): Promise<void> {
    if (marks.length === 0) return;
    const col = this.options.store.collection<OutboxDoc>(collection);
    const at = new Date().toISOString();
    const matched = await col.updateEach(marks.map(({ doc, result }) => ({ filter: asRead(doc), update: marked(result, at) })));
    if (matched === marks.length) return;
    await settleAll(
      marks.map(async ({ doc, result }) => {
        const outbox = (await col.findOne({ _id: doc._id }))?._outbox ?? {};
        if (went(result).some((event) => outbox[event.id] !== undefined)) await this.markOneByOne(col, doc._id, result, at);
      }),
    );
  }

  private async markOneByOne(col: Collection<OutboxDoc>, id: string, result: Sent, at: string): Promise<void> {
    const { dead } = result;
    await col.findOneAndUpdate({ _id: id }, { ...(dead.length > 0 ? { $set: keptDead(dead, at) } : {}), $unset: Object.fromEntries(went(result).map((e) => [`_outbox.${e.id}`, ""])) });
    await col.findOneAndUpdate({ _id: id, _outbox: {} }, { $set: { outboxPending: false }, $unset: { outboxAt: "" } });
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
    const rerun = this.again || this.backlog;
    this.again = false;
    this.backlog = false;
    this.schedule(rerun ? 0 : (this.options.pollMs ?? 1_000));
  }
}

/** A document of a pass whose events all went, with what went. */
interface Mark {
  doc: OutboxDoc;
  result: Sent;
}

interface Relayed {
  /** When the document's oldest unsent event was created; Infinity when none is left. */
  oldest: number;
  /** Set when its events all went and the pass still has to mark them. */
  mark?: Mark;
}

/** The filter of a mark: the document's outbox as it was read, so that an event added since stays. */
function asRead(doc: OutboxDoc): Filter {
  return { _id: doc._id, _outbox: doc._outbox ?? {} };
}

/** The update of a mark: the outbox emptied, the pending flag cleared, the dead events kept aside. */
function marked({ dead }: Sent, at: string): Update {
  return { $set: { _outbox: {}, outboxPending: false, ...keptDead(dead, at) }, $unset: { outboxAt: "" } };
}

/** The events that left the outbox: published, or dead-lettered. */
function went({ sent, dead }: Sent): OutboxEvent[] {
  return [...sent, ...dead.map((d) => d.event)];
}

function keptDead(dead: Sent["dead"], at: string): Record<string, unknown> {
  return Object.fromEntries(dead.map(({ event, reason }) => [`_outboxDead.${event.id}`, { ...event, reason, at }]));
}

/** libs/messaging's `EventCannotApply`, recognised by name: libs/store does not import messaging. */
function isPermanent(err: unknown): boolean {
  return err instanceof Error && err.name === "EventCannotApply";
}

/**
 * Oldest first, then by id. By code unit, not `localeCompare`: both are ASCII (ISO 8601 times,
 * `evt_` and hex), where the orders agree, and a collator would page ICU's collation data in.
 */
function inCreationOrder(a: OutboxEvent, b: OutboxEvent): number {
  return byCodeUnit(a.created_at, b.created_at) || byCodeUnit(a.id, b.id);
}

/** As @payrail/contracts' `byCodeUnit`, which libs/store does not import. */
function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
