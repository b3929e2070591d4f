import { randomBytes } from "node:crypto";
import { SecretBox, silentLogger } from "@payrail/runtime";
import { MongoClient } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import { createEmbeddedStore, createReplyLedger, REPLY_LEDGER_COLLECTION, withIndexCheck, type Store } from "../src/index.ts";
import { createMongoStore } from "../src/mongo/index.ts";
import { mongoTestUrl, uniqueTestDbName } from "../src/testing/index.ts";
import { until } from "../../../test/support/until.ts";

/*
 * The reply ledger's sweep keeps up: replies (a claim and a reply each, as the ledger writes
 * them) expire together; the next claim starts a sweep, which deletes in bounded passes until
 * nothing expired is left, instead of 100 records a minute. `npm test` runs 5,000 replies with
 * passes of 2,000 records (five passes, seconds on either store); `npm run test:retention-scale`
 * runs 10^5 at the production pass size (four passes of 50,000). On MongoDB and SQLite each pass
 * is a walk of the `expiresAt` index; FerretDB v1 scans the whole collection for every
 * statement, so at 10^5 its passes take minutes (about 2 on this shared machine), which is why
 * the wait's deadline is generous.
 */
const logger = silentLogger();
const mongo = await mongoTestUrl();
const mongoDb = uniqueTestDbName();
const opened: Store[] = [];
afterAll(async () => {
  for (const store of opened) {
    await store.drop();
    await store.close();
  }
  await mongo.stop();
});

const REPLIES = Number(process.env["LEDGER_RETENTION_REPLIES"] ?? 5_000);
/** Records a sweep pass deletes: the production default at scale, small enough for several passes otherwise. */
const SWEEP_BATCH = REPLIES >= 100_000 ? undefined : 2_000;
const HOUR = 3_600_000;
type Ledger = Awaited<ReturnType<typeof createReplyLedger<{ ok: true; data: string }>>>;

/**
 * Writes replies as the ledger writes every POST: a claim, then the sealed reply, 1 h to live,
 * one a millisecond (as requests come; a batch's last expiry bounds its delete, ties included).
 */
async function throughTheLedger(ledger: Ledger, now: number, from: number, to: number): Promise<void> {
  const WRITERS = 32;
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = from + w; i < to; i += WRITERS) {
        expect(await ledger.claim(`call:${i}`, "fp", `c${i}`, now + 3_000, now + HOUR + i)).toBeNull();
        await ledger.finish(`call:${i}`, `c${i}`, "fp", { ok: true, data: `reply ${i}` }, now + HOUR + i);
      }
    }),
  );
}

/**
 * The same records in bulk through the driver: FerretDB takes a few hundred single inserts a
 * second on this machine, so 2 x 10^5 of them would take the test ten minutes. The first
 * thousand still go through the ledger, and the test checks the bulk ones look the same.
 */
async function inBulk(dbName: string, sealer: SecretBox, now: number, from: number, to: number): Promise<void> {
  const client = await MongoClient.connect(mongo.url!);
  try {
    const col = client.db(dbName).collection<Record<string, unknown> & { _id: string }>(REPLY_LEDGER_COLLECTION);
    for (let start = from; start < to; start += 5_000) {
      const docs = [];
      for (let i = start; i < Math.min(to, start + 5_000); i++) {
        docs.push({ _id: `call:${i}`, callId: `c${i}`, runId: `c${i}`, fingerprint: "fp", leaseUntil: now + 3_000, expiresAt: now + HOUR + i });
        const done = `call:${i}|done`;
        docs.push({ _id: done, callId: `c${i}`, fingerprint: "fp", expiresAt: now + HOUR + i, replySealed: sealer.seal(JSON.stringify({ ok: true, data: `reply ${i}` }), done) });
      }
      await col.insertMany(docs, { ordered: false });
    }
  } finally {
    await client.close();
  }
}

const variants: [string, { open: () => Store; dbName?: string } | null][] = [
  ["embedded store", { open: () => createEmbeddedStore({ logger }) }],
  ["MongoDB-wire store", mongo.url ? { open: () => createMongoStore({ url: mongo.url!, dbName: mongoDb, logger }), dbName: mongoDb } : null],
];

describe.each(variants)("reply ledger retention on the %s", (_name, variant) => {
  it.skipIf(!variant)(
    `is back under its retention bound after ${REPLIES} replies expire`,
    async () => {
      const store = withIndexCheck(variant!.open(), { mode: "enforce" });
      opened.push(store);
      const clock = { now: Date.now() };
      const sealer = new SecretBox(randomBytes(32));
      const ledger = await createReplyLedger<{ ok: true; data: string }>(store, { sealer, now: () => clock.now, ...(SWEEP_BATCH ? { sweepBatch: SWEEP_BATCH } : {}) });
      const records = store.collection<{ _id: string; expiresAt: number; replySealed?: string }>(REPLY_LEDGER_COLLECTION);
      const first = Math.min(REPLIES, 1_000);
      await throughTheLedger(ledger, clock.now, 0, first);
      if (variant!.dbName) {
        await inBulk(variant!.dbName, sealer, clock.now, first, REPLIES);
        const [byLedger, byBulk] = await Promise.all([records.findOne({ _id: "call:0|done" }), records.findOne({ _id: `call:${REPLIES - 1}|done` })]);
        expect(Object.keys(byBulk ?? {}).sort()).toEqual(Object.keys(byLedger ?? {}).sort());
        expect(await ledger.claim(`call:${REPLIES - 1}`, "fp", "again", clock.now + 3_000, clock.now + HOUR)).toMatchObject({ state: "done", reply: { data: `reply ${REPLIES - 1}` } });
      } else {
        await throughTheLedger(ledger, clock.now, first, REPLIES);
      }
      expect(await records.estimatedCount()).toBe(2 * REPLIES);

      // Once all have expired, one more request comes; its claim starts the sweep behind it.
      clock.now += HOUR + REPLIES + 60_000;
      expect(await ledger.claim("call:next", "fp", "next", clock.now + 3_000, clock.now + HOUR)).toBeNull();
      // Watched through the count the database keeps (a query would scan FerretDB's collection).
      await until("the sweep to leave only the live record (9 minutes at most)", async () => (await records.estimatedCount()) <= 1, 540_000, 500);
      expect(await records.countDocuments({ expiresAt: { $lt: clock.now } })).toBe(0);
      // Only the live record is left, and it still answers.
      expect(await records.estimatedCount()).toBe(1);
      expect(await ledger.claim("call:next", "fp", "other", clock.now + 3_000, clock.now + HOUR)).toMatchObject({ state: "running", callId: "next" });
    },
    900_000,
  );
});
