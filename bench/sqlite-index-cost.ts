/**
 * What a document's indexes cost each write on the embedded store. The store keeps a document as
 * JSON text and each indexed field in a key column of its own (libs/store's key-columns.ts); an
 * update sets `doc` and only the key columns whose values changed. SQLite maintains on an
 * UPDATE every index that reads a column the UPDATE sets, deleting and inserting its entry
 * again: with indexes on `json_extract(doc, …)` expressions (the plain SQLite row below, and
 * the store before key columns) that was every index on every write.
 *
 * Rows, each on a fresh store file of `--docs` checkout-shaped documents (about 1.5 KB), then
 * `--writes` updates of a field no index holds, on random documents, `--batch` at a time (one
 * group commit each, as concurrent requests give):
 *   - the embedded store (`findOneAndUpdate`), with 0, 1, 4 and all 7 of a checkout's indexes (its `_id` key aside);
 *   - plain SQLite: the same table without indexes (its baseline), with 7 indexes on the same
 *     expressions, and with the same 7 indexes on columns of their own that the UPDATE leaves alone.
 *
 *   npx tsx bench/sqlite-index-cost.ts [--docs 20000] [--writes 15000] [--batch 15]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { silentLogger } from "@payrail/runtime";
import { createEmbeddedStore, type IndexSpec } from "@payrail/store";

const { values } = parseArgs({ options: { docs: { type: "string", default: "20000" }, writes: { type: "string", default: "15000" }, batch: { type: "string", default: "15" } } });
const DOCS = Number(values.docs);
const WRITES = Number(values.writes);
const BATCH = Number(values.batch);

/** A checkout's indexes (services/checkout's repository and its outbox), in the order the rows add them. */
const CHECKOUT_INDEXES: IndexSpec[] = [
  { keys: { merchantId: 1, merchantCheckoutId: 1 }, unique: true, name: "merchant_checkout_id" },
  { keys: { number: 1 }, unique: true, name: "number" },
  { keys: { merchantId: 1, number: -1, "amountCents.total": 1 }, name: "merchant_newest_amount" },
  { keys: { merchantId: 1, status: 1, number: -1, "amountCents.total": 1 }, name: "merchant_status_newest_amount" },
  { keys: { merchantId: 1, isSubscription: 1, number: -1, "amountCents.total": 1 }, name: "merchant_subscriptions_newest_amount" },
  { keys: { merchantId: 1, createdAt: -1, number: -1, "amountCents.total": 1 }, name: "merchant_created_newest_amount" },
  { keys: { outboxPending: 1, outboxAt: 1 }, name: "outbox_pending_at" },
];

function checkout(i: number): Record<string, unknown> & { _id: string } {
  const address = { name: "Ada Lovelace", address_1: "12 Analytical Row", city: "Springfield", zone_code: "IL", country_code: "US", postal_code: "62701" };
  return {
    _id: `chk_${String(i).padStart(32, "0")}`,
    merchantId: `mer_${String(i % 10).padStart(32, "0")}`,
    number: i + 1,
    merchantCheckoutId: `order-${i}`,
    createdByCall: "3b404413-ff20-410d-9293-33344667b818",
    body: {
      amounts: { total: "107.50", subtotal: "100.00", tax: "5.00", shipping: "2.50", currency: "USD" },
      billing: address,
      shipping: address,
      platform: { platform_type: "custom" },
      merchant_checkout_id: `order-${i}`,
      merchant_user_id: "user-42",
      redirect_cancel_url: "https://shop.example/cancel",
      redirect_confirm_url: "https://shop.example/confirm",
      is_subscription: false,
      user_cohorts: [],
    },
    amountCents: { total: 10_750, subtotal: 10_000, tax: 500, shipping: 250, discount_total: null },
    currency: "USD",
    isSubscription: false,
    planType: null,
    status: "open",
    version: 1,
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    outboxPending: false,
    _outbox: {},
    note: 0,
  };
}

const randomDoc = () => Math.floor(Math.random() * DOCS);

/** µs per write through the embedded store, with the first `indexes` of a checkout's indexes. */
async function storeRow(indexes: number): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), "payrail-index-cost-"));
  const store = createEmbeddedStore({ dir, logger: silentLogger() });
  try {
    const docs = store.collection<ReturnType<typeof checkout>>("checkouts");
    for (const spec of CHECKOUT_INDEXES.slice(0, indexes)) await docs.createIndex(spec);
    for (let i = 0; i < DOCS; i += 500) await Promise.all(Array.from({ length: Math.min(500, DOCS - i) }, (_, k) => docs.insertOne(checkout(i + k))));
    const started = performance.now();
    for (let done = 0; done < WRITES; done += BATCH) {
      await Promise.all(Array.from({ length: BATCH }, (_, k) => docs.findOneAndUpdate({ _id: checkout(randomDoc())._id }, { $set: { note: done + k } })));
    }
    return ((performance.now() - started) * 1000) / WRITES;
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** µs per write in plain SQLite: a checkout's 7 indexes on `json_extract(doc, …)`, or on columns the UPDATE leaves alone. */
async function sqliteRow(on: "none" | "expressions" | "columns"): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), "payrail-index-cost-"));
  const db = new Database(join(dir, "plain.sqlite"));
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("cache_size = -8192");
    const paths = [...new Set(CHECKOUT_INDEXES.flatMap((spec) => Object.keys(spec.keys)))];
    const column = (path: string) => `k_${path.replace(".", "_")}`;
    // The expressions' table is the store's own (an `_id` and the document); the columns' table adds
    // one per indexed field (no declared type: it keeps json_extract's value as given).
    const columns = on === "columns" ? paths : [];
    db.exec(`CREATE TABLE t (_id TEXT PRIMARY KEY, doc TEXT NOT NULL${columns.map((p) => `, ${column(p)}`).join("")})`);
    for (const [i, spec] of (on === "none" ? [] : CHECKOUT_INDEXES).entries()) {
      const keys = Object.entries(spec.keys).map(([p, dir]) => `${on === "columns" ? column(p) : `json_extract(doc, '$.${p}')`}${dir === -1 ? " DESC" : ""}`);
      db.exec(`CREATE ${spec.unique ? "UNIQUE " : ""}INDEX t_${i} ON t (${keys.join(", ")})`);
    }
    const insert = db.prepare(
      `INSERT INTO t (_id, doc${columns.map((p) => `, ${column(p)}`).join("")}) VALUES (@id, @doc${columns.map((p) => `, json_extract(@doc, '$.${p}')`).join("")})`,
    );
    db.transaction(() => {
      for (let i = 0; i < DOCS; i++) {
        const doc = checkout(i);
        insert.run({ id: doc._id, doc: JSON.stringify(doc) });
      }
    })();
    const read = db.prepare("SELECT rowid, doc FROM t WHERE _id = ?");
    const update = db.prepare("UPDATE t SET doc = ? WHERE rowid = ?");
    const batch = db.transaction((ids: string[], note: number) => {
      for (const id of ids) {
        const row = read.get(id) as { rowid: number; doc: string };
        update.run(JSON.stringify({ ...JSON.parse(row.doc), note }), row.rowid);
      }
    });
    const started = performance.now();
    for (let done = 0; done < WRITES; done += BATCH) batch(Array.from({ length: BATCH }, () => checkout(randomDoc())._id), done);
    return ((performance.now() - started) * 1000) / WRITES;
  } finally {
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

console.log(`${DOCS} checkout-shaped documents, ${WRITES} updates of a field no index holds, ${BATCH} a commit; µs per update`);
console.log("Plain SQLite checkpoints its WAL on this thread, inside the timing; the store's worker thread does it outside: compare each group with its own baseline.");
console.log("| row | µs per update | against its group's baseline |");
console.log("| --- | ---: | ---: |");
const row = (name: string, us: number, baseline: number) => console.log(`| ${name} | ${us.toFixed(1)} | ${(us / baseline).toFixed(2)}× |`);
const none = await storeRow(0);
row("embedded store, no index (baseline)", none, none);
for (const n of [1, 4, CHECKOUT_INDEXES.length]) row(`embedded store, ${n} of a checkout's indexes`, await storeRow(n), none);
const plain = await sqliteRow("none");
row("plain SQLite, no index (baseline)", plain, plain);
row(`plain SQLite, ${CHECKOUT_INDEXES.length} indexes on json_extract(doc, …)`, await sqliteRow("expressions"), plain);
row(`plain SQLite, ${CHECKOUT_INDEXES.length} indexes on columns the update leaves alone`, await sqliteRow("columns"), plain);
