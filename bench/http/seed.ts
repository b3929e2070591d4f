/**
 * Seeds stored checkouts through the store, not HTTP: the domain services run in this process
 * on the in-process bus (bin/wiring.ts, as `payrail start` wires them) over the store the server
 * will open next, so every document, index entry and `number` sequence value is the one
 * services/checkout writes itself, and every `checkout.created` event reaches its subscribers
 * (the webhooks service's event log) before the seed ends: a store of 10^6 checkouts in service
 * has sent their events long ago, and a backlog left in the outbox would be drained by the
 * server under test, inside the rows it measures. The embedded store is single-process, so this
 * runs before the server starts and closes the store when done.
 */
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { createCheckoutOp, createMerchantOp, type CreateCheckoutBody } from "@payrail/contracts";
import { loadConfig, silentLogger } from "@payrail/runtime";
import { EVENT_QUEUE, runningRelays, type Store } from "@payrail/store";
import { DOMAIN_SERVICES, openStore, openTransport, startServices, type Started } from "../../bin/wiring.ts";
import { checkoutBody } from "./checkout-body.ts";

/** How many checkouts are written at once: enough to keep the store's write queue full. */
const CONCURRENCY = 64;
/** How many seeded ids the Get row picks from (a uniform sample of all of them). */
const SAMPLE_SIZE = 10_000;
const PROGRESS_EVERY_MS = 5_000;
/** How often the seed looks whether the events are all delivered. */
const DRAIN_POLL_MS = 200;

/** Where the data lives: the embedded store's folder, or a MongoDB-wire database. */
export type StoreTarget = { dataDir: string } | { mongodbUrl: string; dbName: string; dataDir: string };

export interface Seeded {
  merchantId: string;
  apiKey: string;
  /** A uniform sample of the seeded checkout ids. */
  sampleIds: string[];
  seconds: number;
  /** Of `seconds`, the wait for the seeded checkouts' events to reach their subscribers. */
  drainSeconds: number;
}

/** The Payrail environment of a store target (also given to the servers that use it). */
export function storeEnv(target: StoreTarget, secretsKey: string): Record<string, string> {
  const env: Record<string, string> = { DATA_DIR: target.dataDir, SECRETS_KEY: secretsKey };
  if ("mongodbUrl" in target) Object.assign(env, { MONGODB_URL: target.mongodbUrl, MONGODB_DB: target.dbName });
  return env;
}

/** Creates a merchant and `count` checkouts of it; returns its key and a sample of the ids. */
export async function seedCheckouts(target: StoreTarget, secretsKey: string, count: number, label: string): Promise<Seeded> {
  const config = loadConfig({ ...storeEnv(target, secretsKey), SERVICES: "all" });
  const logger = silentLogger();
  const store = await openStore(config, logger);
  const transport = await openTransport(config, logger);
  const t0 = performance.now();
  const started: Started[] = [];
  try {
    started.push(...(await startServices(DOMAIN_SERVICES, { config, logger, transport, store })));
    const admin = { requestId: "bench-seed", principal: { kind: "admin" as const } };
    const created = await transport.call(createMerchantOp, { name: "Bench merchant" }, admin);
    const merchant = { kind: "merchant" as const, merchantId: created.merchant.id, keyPrefix: created.key_prefix, livemode: false };
    const ctx = { requestId: "bench-seed", principal: merchant };

    const sampleIds: string[] = [];
    let next = 0;
    let done = 0;
    let lastReport = performance.now();
    const worker = async () => {
      for (let i = next++; i < count; i = next++) {
        const body = checkoutBody(`seed-${i}`) as CreateCheckoutBody;
        const { id } = await transport.call(createCheckoutOp, { checkout: body }, ctx);
        // Reservoir sampling: every seeded id is equally likely to be in the sample.
        const slot = done < SAMPLE_SIZE ? done : Math.floor(Math.random() * (done + 1));
        if (slot < SAMPLE_SIZE) sampleIds[slot] = id;
        done += 1;
        if (performance.now() - lastReport > PROGRESS_EVERY_MS) {
          lastReport = performance.now();
          const rate = done / ((lastReport - t0) / 1000);
          console.log(`  seeding ${label}: ${done}/${count} (${Math.round(rate)}/s, ~${Math.round((count - done) / rate)} s left)`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, worker));
    const t1 = performance.now();
    await eventsDelivered(store, label);
    const t2 = performance.now();
    return { merchantId: merchant.merchantId, apiKey: created.api_key, sampleIds, seconds: (t2 - t0) / 1000, drainSeconds: (t2 - t1) / 1000 };
  } finally {
    // Their schedulers and workers would keep the bench's process alive after its report.
    for (const service of started.reverse()) await service.stop();
    await transport.close();
    await store.close();
  }
}

/**
 * Resolves once no document holds an event its relay has not sent and no subscriber's queue
 * holds one it has not handled. The relays drain a backlog pass after pass; this only watches.
 */
async function eventsDelivered(store: Store, label: string): Promise<void> {
  const outboxes = runningRelays.list().flatMap((relay) => relay.collections);
  const queue = store.collection(EVENT_QUEUE);
  let lastReport = performance.now();
  for (;;) {
    const pending = await Promise.all(outboxes.map((name) => store.collection(name).find({ outboxPending: true }, { sort: { outboxAt: 1 }, limit: 1 })));
    const inOutbox = pending.some((docs) => docs.length > 0);
    // With the outbox empty, the queue is what is left; by service, as its index is.
    const queued = inOutbox ? [] : await Promise.all(DOMAIN_SERVICES.map((service) => queue.find({ service }, { sort: { queuedAt: 1 }, limit: 1 })));
    if (!inOutbox && queued.every((docs) => docs.length === 0)) return;
    if (performance.now() - lastReport > PROGRESS_EVERY_MS) {
      lastReport = performance.now();
      // The seed's RSS shows the in-process bus's flow control holding the relays back.
      const where = inOutbox ? "outbox" : "subscribers' queues";
      console.log(`  seeding ${label}: delivering the checkouts' events (${where}; RSS ${Math.round(process.memoryUsage.rss() / 2 ** 20)} MB)`);
    }
    await sleep(DRAIN_POLL_MS);
  }
}

/** Deletes a MongoDB-wire database the bench made (the embedded folders are just removed). */
export async function dropDatabase(target: StoreTarget, secretsKey: string): Promise<void> {
  if (!("mongodbUrl" in target)) return;
  const config = loadConfig(storeEnv(target, secretsKey));
  const store = await openStore(config, silentLogger());
  try {
    await store.drop();
  } finally {
    await store.close();
  }
}
