import { afterAll, describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import {
  createProcessedEvents,
  createEmbeddedStore,
  createEventDeadLetters,
  insertWithEvents,
  NOT_REMOVED,
  OutboxRelay,
  removeWithEvents,
  withEvents,
  withIndexCheck,
  type OutboxEvent,
  type OutboxFields,
  type Store,
} from "../src/index.ts";
import { createMongoStore } from "../src/mongo/index.ts";
import { mongoTestUrl, uniqueTestDbName } from "../src/testing/index.ts";
import { until } from "../../../test/support/until.ts";

const logger = silentLogger();
const mongo = await mongoTestUrl();
const opened: Store[] = [];
afterAll(async () => {
  for (const store of opened) {
    await store.drop();
    await store.close();
  }
  await mongo.stop();
});

type Order = { _id: string; status: string; version: number } & OutboxFields;

let seq = 0;
function event(type: string, aggregateId: string): OutboxEvent & { aggregate: string } {
  seq++;
  return { id: `evt_${String(seq).padStart(32, "0")}`, type, created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, seq)).toISOString(), aggregate: aggregateId };
}

const variants: [string, (() => Store) | null][] = [
  ["embedded store", () => createEmbeddedStore({ logger })],
  ["MongoDB-wire store", mongo.url ? () => createMongoStore({ url: mongo.url!, dbName: uniqueTestDbName(), logger }) : null],
];

describe.each(variants)("outbox on the %s", (_name, open) => {
  const fresh = (): Store => {
    if (!open) throw new Error("unreachable");
    // The index check is on, as in every suite: the relay must declare what it queries by.
    const store = withIndexCheck(open(), { mode: "enforce" });
    opened.push(store);
    return store;
  };
  const runIf = open ? it : it.skip;
  const collectionName = () => `orders_${Math.random().toString(36).slice(2, 8)}`;

  /** A relay over `name` whose broker is down until `broker.up`, run pass by pass with `runOnce`. */
  const relayDrivenByHand = async (store: Store, name: string) => {
    const broker = { up: false };
    const published: string[] = [];
    const relay = new OutboxRelay({
      store,
      collections: [name],
      logger,
      publish: async (e) => {
        if (!broker.up) throw new Error("broker down");
        published.push(e.id);
      },
    });
    await relay.start();
    await relay.stop(); // driven by hand
    return { relay, published, broker };
  };

  runIf("publishes each event of a write once, in order per document, and clears the outbox", async () => {
    const store = fresh();
    const name = collectionName();
    const orders = store.collection<Order>(name);
    const published: OutboxEvent[] = [];
    const relay = new OutboxRelay({ store, collections: [name], logger, pollMs: 20, publish: async (e) => void published.push(e) });
    await relay.start();
    const created = event("order.created", "o1");
    await orders.insertOne(insertWithEvents({ _id: "o1", status: "open", version: 1 }, [created]));
    const paid = [event("order.paid", "o1"), event("order.receipt", "o1")];
    await orders.findOneAndUpdate({ _id: "o1", status: "open" }, withEvents({ $set: { status: "paid" }, $inc: { version: 1 } }, paid));
    relay.notify();
    await until("the three events to be published", () => published.length === 3);
    await until("o1's outbox to drain", async () => (await orders.findOne({ _id: "o1" }))?.outboxPending === false);
    await relay.stop();
    expect(published.map((e) => e.id)).toEqual([created.id, paid[0]!.id, paid[1]!.id]);
    expect(await orders.findOne({ _id: "o1" })).toEqual({ _id: "o1", status: "paid", version: 2, outboxPending: false, _outbox: {} });
    expect(relay.stats()).toMatchObject({ published: 3, lagMs: 0 });
  });

  runIf("deletes a document removed with events once they are published, and readers skip it meanwhile", async () => {
    const store = fresh();
    const name = collectionName();
    const orders = store.collection<Order>(name);
    const { relay, published, broker } = await relayDrivenByHand(store, name);
    await orders.insertOne({ _id: "o9", status: "open", version: 1 });
    const removed = event("order.removed", "o9");
    expect(await orders.findOneAndUpdate({ _id: "o9", ...NOT_REMOVED }, removeWithEvents([removed]))).not.toBeNull();
    // Gone for readers at once, and a second removal finds nothing to remove (no second event).
    expect(await orders.findOne({ _id: "o9", ...NOT_REMOVED })).toBeNull();
    expect(await orders.findOneAndUpdate({ _id: "o9", ...NOT_REMOVED }, removeWithEvents([event("order.removed", "o9")]))).toBeNull();
    // The broker away: the tombstone keeps its event.
    await relay.runOnce();
    expect((await orders.findOne({ _id: "o9" }))?._outbox).toHaveProperty(removed.id);
    broker.up = true;
    await relay.runOnce();
    expect(published).toEqual([removed.id]);
    expect(await orders.findOne({ _id: "o9" })).toBeNull();
  });

  runIf("keeps events whose publish failed and sends them on a later pass", async () => {
    const store = fresh();
    const name = collectionName();
    const orders = store.collection<Order>(name);
    const { relay, published, broker } = await relayDrivenByHand(store, name);
    const e1 = event("order.created", "o2");
    await orders.insertOne(insertWithEvents({ _id: "o2", status: "open", version: 1 }, [e1]));
    await relay.runOnce();
    expect(published).toEqual([]);
    expect((await orders.findOne({ _id: "o2" }))?.outboxPending).toBe(true);
    expect(relay.stats()).toMatchObject({ failures: 1, published: 0 });
    expect(relay.stats().lagMs).toBeGreaterThan(0);
    broker.up = true;
    await relay.runOnce();
    expect(published).toEqual([e1.id]);
    expect((await orders.findOne({ _id: "o2" }))?.outboxPending).toBe(false);
    expect(relay.stats()).toMatchObject({ published: 1, lagMs: 0 });
  });

  runIf("publishes again after a crash between publish and mark, and the subscriber applies it once", async () => {
    const store = fresh();
    const name = collectionName();
    const orders = store.collection<Order>(name);
    const e1 = event("order.created", "o3");
    await orders.insertOne(insertWithEvents({ _id: "o3", status: "open", version: 1 }, [e1]));
    let applied = 0;
    const deliveries: string[] = [];
    const processed = await createProcessedEvents(store, "billing");
    const subscriber = async (e: OutboxEvent) => {
      deliveries.push(e.id);
      await processed.applyOnce(e.id, async () => void applied++);
    };
    // The first relay's process dies right after the broker took the event: nothing marked.
    const crashing = new OutboxRelay({
      store,
      collections: [name],
      logger,
      publish: async (e) => {
        await subscriber(e);
        throw new Error("process killed before marking");
      },
    });
    await crashing.start();
    await crashing.stop();
    await crashing.runOnce();
    const survivor = new OutboxRelay({ store, collections: [name], logger, publish: subscriber });
    await survivor.start();
    await survivor.stop();
    await survivor.runOnce();
    expect(deliveries).toEqual([e1.id, e1.id]);
    expect(applied).toBe(1);
    expect((await orders.findOne({ _id: "o3" }))?.outboxPending).toBe(false);
  });

  runIf("forgets applied events after the retention, behind later events, and keeps the recent ones", async () => {
    const store = fresh();
    let clock = Date.UTC(2026, 0, 1);
    const keepMs = 24 * 60 * 60 * 1000;
    const processed = await createProcessedEvents(store, "sweeper", { keepMs, now: () => clock });
    const old = Array.from({ length: 250 }, (_, i) => event("order.touched", `old${i}`).id);
    for (const id of old) expect(await processed.applyOnce(id, async () => {})).toBe(true);
    clock += keepMs + 60_000;
    const recent = event("order.touched", "recent").id;
    expect(await processed.applyOnce(recent, async () => {})).toBe(true); // past a minute: sweeps behind
    const records = store.collection<{ _id: string }>("processed_events");
    await until("the last old record to be swept", async () => (await records.findOne({ _id: `sweeper/${old[249]}` })) === null);
    expect(await records.findOne({ _id: `sweeper/${recent}` })).not.toBeNull();
    // Still remembered within the retention: a duplicate is skipped.
    expect(await processed.applyOnce(recent, async () => expect.unreachable())).toBe(false);
    // Past it, a duplicate is applied again (harmless: subscribers only move state forward).
    expect(await processed.applyOnce(old[0]!, async () => {})).toBe(true);
  });

  runIf("poison events beside 200 good ones: the good ones flow, each poison is dead-lettered once and kept on its document", async () => {
    const store = fresh();
    const name = collectionName();
    const orders = store.collection<Order>(name);
    // 25 poison documents, the oldest, more than a batch (20): they head every pass, so a relay
    // that kept retrying them would never reach the good ones.
    const poisons = Array.from({ length: 25 }, (_, i) => event("order.created", `poison${i}`));
    const after = event("order.paid", "poison0");
    await orders.insertOne(insertWithEvents({ _id: "poison0", status: "open", version: 1 }, [poisons[0]!, after]));
    for (const [i, poison] of poisons.entries()) if (i > 0) await orders.insertOne(insertWithEvents({ _id: `poison${i}`, status: "open", version: 1 }, [poison]));
    for (let i = 0; i < 200; i++) await orders.insertOne(insertWithEvents({ _id: `g${i}`, status: "open", version: 1 }, [event("order.created", `g${i}`)]));
    const poisonIds = new Set(poisons.map((p) => p.id));
    const published: string[] = [];
    const attempts = new Map<string, number>();
    const relay = new OutboxRelay({
      store,
      collections: [name],
      logger,
      batch: 20,
      publish: async (e) => {
        attempts.set(e.id, (attempts.get(e.id) ?? 0) + 1);
        // What libs/messaging's publish throws for an event that fails its schema.
        if (poisonIds.has(e.id)) throw Object.assign(new Error(`not a valid order.created event: data.object.id Required`), { name: "EventCannotApply" });
        published.push(e.id);
      },
    });
    await relay.start();
    await relay.stop(); // driven by hand
    for (let pass = 0; pass < 14; pass++) await relay.runOnce();
    expect(published).toHaveLength(201); // the 200 and the first poison document's later event
    expect(published).toContain(after.id);
    for (const poison of poisons) expect(attempts.get(poison.id)).toBe(1); // refused once, never retried
    expect(await orders.find({ outboxPending: true }, { sort: { outboxAt: 1 }, limit: 5 })).toEqual([]);
    const doc = await orders.findOne({ _id: "poison0" });
    expect(doc?._outbox).toEqual({});
    expect(doc?._outboxDead?.[poisons[0]!.id]).toMatchObject({ id: poisons[0]!.id, reason: expect.stringContaining("data.object.id") });
    const letters = await (await createEventDeadLetters(store)).list({ service: `outbox:${name}` });
    expect(letters.map((l) => l.eventId).sort()).toEqual([...poisonIds].sort());
    expect(letters.every((l) => l.type === "order.created" && l.status === "dead")).toBe(true);
    expect(relay.stats()).toMatchObject({ deadLettered: 25, published: 201, lagMs: 0 });
  }, 120_000);

  runIf("takes pending documents oldest first, so a backlog larger than a batch drains in order", async () => {
    const store = fresh();
    const name = collectionName();
    const orders = store.collection<Order>(name);
    // Written newest first, so insertion order and age disagree.
    const events = Array.from({ length: 30 }, (_, i) => event("order.created", `a${i}`));
    for (const e of [...events].reverse()) await orders.insertOne(insertWithEvents({ _id: e.aggregate, status: "open", version: 1 }, [e]));
    const published: string[] = [];
    const relay = new OutboxRelay({ store, collections: [name], logger, batch: 10, publish: async (e) => void published.push(e.id) });
    await relay.start();
    await relay.stop();
    await relay.runOnce();
    expect(published).toEqual(events.slice(0, 10).map((e) => e.id));
    await relay.runOnce();
    await relay.runOnce();
    expect(published).toEqual(events.map((e) => e.id));
  });

  runIf("drains a backlog of many batches pass after pass, not one batch per poll", async () => {
    const store = fresh();
    const name = collectionName();
    const orders = store.collection<Order>(name);
    const events = Array.from({ length: 50 }, (_, i) => event("order.created", `b${i}`));
    for (const e of events) await orders.insertOne(insertWithEvents({ _id: e.aggregate, status: "open", version: 1 }, [e]));
    const published: string[] = [];
    // A poll far longer than the test's wait: only passes that follow each other at once drain it.
    const relay = new OutboxRelay({ store, collections: [name], logger, batch: 10, pollMs: 600_000, publish: async (e) => void published.push(e.id) });
    await relay.start();
    try {
      await until("every event to be published", () => published.length === events.length);
      expect(published).toEqual(events.map((e) => e.id));
    } finally {
      await relay.stop();
    }
  });

  runIf("sends a pass's documents side by side, each document's events one after the other", async () => {
    const store = fresh();
    const name = collectionName();
    const orders = store.collection<Order>(name);
    const docs = Array.from({ length: 10 }, (_, i) => {
      const id = `s${i}`;
      return { id, events: [event("order.created", id), event("order.paid", id), event("order.shipped", id)] };
    });
    for (const doc of docs) await orders.insertOne(insertWithEvents({ _id: doc.id, status: "open", version: 1 }, doc.events));
    const published: string[] = [];
    let inFlight = 0;
    let most = 0;
    // A publish that resolves on a later turn, as a broker's confirm does.
    const publish = async (e: OutboxEvent) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      published.push(e.id);
    };
    const relay = new OutboxRelay({ store, collections: [name], logger, batch: 10, publish });
    await relay.start();
    await relay.stop();
    await relay.runOnce();
    expect(most).toBe(docs.length); // one publish per document in flight at once, never two of one document
    for (const doc of docs) {
      const order = doc.events.map((e) => published.indexOf(e.id));
      expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    }
    expect(await orders.find({ outboxPending: true }, { sort: { outboxAt: 1 }, limit: 5 })).toEqual([]);
  });

  runIf("marks a pass's documents in one write, keeps an event added to one of them meanwhile, and leaves one another relay marked", async () => {
    const store = fresh();
    const name = collectionName();
    const orders = store.collection<Order>(name);
    // What the relay asks of the collection: "updateEach <writes>" or "findOneAndUpdate".
    const writes: string[] = [];
    const watched: Store = new Proxy(store, {
      get: (target, property) =>
        property !== "collection"
          ? Reflect.get(target, property)
          : (n: string) =>
              new Proxy(target.collection(n), {
                get: (col, method) => {
                  const value = Reflect.get(col, method) as unknown;
                  if (method !== "updateEach" && method !== "findOneAndUpdate") return value;
                  return (...args: unknown[]) => {
                    writes.push(method === "updateEach" ? `updateEach ${(args[0] as unknown[]).length}` : method);
                    return (value as (...a: unknown[]) => unknown).apply(col, args);
                  };
                },
              }),
    });
    const ids = ["m1", "m2", "m3", "m4", "m5", "m6"];
    for (const id of ids) await orders.insertOne(insertWithEvents({ _id: id, status: "open", version: 1 }, [event("order.created", id)]));
    const late = event("order.paid", "m3");
    const published: string[] = [];
    const relay = new OutboxRelay({
      store: watched,
      collections: [name],
      logger,
      publish: async (e) => {
        // m3 is paid while its first event is on its way: its outbox no longer holds what was read.
        if (e.id !== late.id && (e as { aggregate?: string }).aggregate === "m3") {
          await orders.findOneAndUpdate({ _id: "m3" }, withEvents({ $set: { status: "paid" } }, [late]));
        }
        // Another replica's relay marks m5 first.
        if ((e as { aggregate?: string }).aggregate === "m5") await orders.findOneAndUpdate({ _id: "m5" }, { $set: { _outbox: {}, outboxPending: false } });
        published.push(e.id);
      },
    });
    await relay.start();
    await relay.stop();
    await relay.runOnce();
    // One write for the six marks. m3's and m5's did not hold: a read of each shows that m3 still
    // holds the event that went, so m3 alone is marked one by one (two writes); m5 was emptied by the other relay.
    expect(writes).toEqual(["updateEach 6", "findOneAndUpdate", "findOneAndUpdate"]);
    expect(published).toHaveLength(6);
    const m3 = await orders.findOne({ _id: "m3" });
    expect(m3).toMatchObject({ status: "paid", outboxPending: true, _outbox: { [late.id]: late } });
    expect(Object.keys(m3?._outbox ?? {})).toEqual([late.id]);
    expect(await orders.countDocuments({ outboxPending: false })).toBe(5);
    writes.length = 0;
    await relay.runOnce();
    expect(writes).toEqual(["updateEach 1"]);
    expect(published.at(-1)).toBe(late.id);
    expect(await orders.find({ outboxPending: true }, { sort: { outboxAt: 1 }, limit: 5 })).toEqual([]);
    expect(await orders.findOne({ _id: "m3" })).toMatchObject({ _outbox: {}, outboxPending: false });
  });

  runIf("catches up in one sweep, pass after pass, with however many applied events expired", async () => {
    const store = fresh();
    let clock = Date.UTC(2026, 0, 1);
    const keepMs = 24 * 60 * 60 * 1000;
    // Passes of 100: 600 expired records take six, all behind one event, with no more time passing
    // (3,000 in passes of 500 outlasted the 30 s on the Mongo-wire store at load 20: the writes cost).
    const processed = await createProcessedEvents(store, "backlog", { keepMs, now: () => clock, sweepBatch: 100 });
    const old = Array.from({ length: 600 }, (_, i) => event("order.touched", `backlog${i}`).id);
    await Promise.all(Array.from({ length: 16 }, async (_, w) => {
      // A millisecond apart, as events come (a batch's last time bounds its delete, ties included).
      for (let i = w; i < old.length; i += 16) await processed.applyOnce(old[i]!, async () => void clock++);
    }));
    const records = store.collection<{ _id: string; processedAt: string }>("processed_events");
    const cutoff = () => new Date(clock - keepMs).toISOString();
    clock += keepMs + 60_000;
    expect(await records.countDocuments({ processedAt: { $lt: cutoff() } })).toBe(600);
    expect(await processed.applyOnce(event("order.touched", "backlog-last").id, async () => {})).toBe(true);
    await until("no record older than the cutoff", async () => (await records.countDocuments({ processedAt: { $lt: cutoff() } })) === 0);
  });

  runIf("loses none of 500 events written while two relays publish", async () => {
    const store = fresh();
    const name = collectionName();
    const orders = store.collection<Order>(name);
    const seen = new Set<string>();
    const relays = [1, 2].map(() => new OutboxRelay({ store, collections: [name], logger, pollMs: 5, batch: 20, publish: async (e) => void seen.add(e.id) }));
    for (const relay of relays) await relay.start();
    for (let i = 0; i < 25; i++) await orders.insertOne({ _id: `o${i}`, status: "open", version: 0 });
    const written: string[] = [];
    await Promise.all(
      Array.from({ length: 25 }, async (_, i) => {
        for (let n = 0; n < 20; n++) {
          const e = event("order.touched", `o${i}`);
          written.push(e.id);
          await orders.findOneAndUpdate({ _id: `o${i}` }, withEvents({ $inc: { version: 1 } }, [e]));
          relays[n % 2]!.notify();
        }
      }),
    );
    await until("every written event to be seen", () => written.every((id) => seen.has(id)), 20_000);
    await until("every outbox to drain", async () => (await orders.find({ outboxPending: true }, { limit: 1 })).length === 0);
    for (const relay of relays) await relay.stop();
    expect(written).toHaveLength(500);
  });
});
