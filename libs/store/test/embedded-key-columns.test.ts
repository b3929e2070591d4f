import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { createEmbeddedStore, type Update } from "../src/index.ts";
import type { EmbeddedCollection } from "../src/embedded/embedded.collection.ts";
import { DATABASE_FILE } from "../src/embedded/sqlite-host.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const logger = silentLogger();
const tempDir = tempDirs("payrail-key-columns-");

interface Item {
  _id: string;
  merchantId?: string | null;
  status?: string;
  flag?: boolean | number;
  amount?: { total: number };
  tags?: string[];
  note?: string;
  n?: number;
}

/** Each key column's rows whose value is not what `json_extract` of the document gives. */
function columnsOutOfStep(dir: string, table: string): Record<string, number> {
  const db = new Database(join(dir, DATABASE_FILE), { readonly: true });
  try {
    const columns = (db.prepare("SELECT name FROM pragma_table_info(?)").all(table) as { name: string }[]).map((c) => c.name).filter((n) => n.startsWith("k:"));
    return Object.fromEntries(
      columns.map((c) => [c, (db.prepare(`SELECT count(*) AS n FROM "${table}" WHERE "${c}" IS NOT json_extract(doc, '$.${c.slice(2)}')`).get() as { n: number }).n]),
    );
  } finally {
    db.close();
  }
}

describe("the embedded store's key columns", () => {
  it("keep every indexed field equal to the document's value through random inserts, updates and upserts", async () => {
    const dir = await tempDir();
    const store = createEmbeddedStore({ dir, logger });
    const items = store.collection<Item>("items");
    await items.createIndex({ keys: { merchantId: 1, status: 1, "amount.total": -1 }, name: "merchant_status" });
    await items.createIndex({ keys: { flag: 1 }, name: "flag" });
    await items.createIndex({ keys: { tags: 1 }, name: "tags" });
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % n;
    const statuses = ["open", "paid", "failed"];
    const updates = (): Update[] => [
      { $set: { status: statuses[random(3)] } },
      { $set: { note: `note ${random(100)}` } },
      { $set: { flag: random(2) === 0 } },
      { $set: { flag: random(2) } },
      { $set: { "amount.total": random(1_000) } },
      { $set: { amount: { total: random(1_000) } } },
      { $inc: { "amount.total": 1 } },
      { $unset: { merchantId: "" } },
      { $set: { merchantId: null } },
      { $push: { tags: `t${random(5)}` } },
      { $set: { tags: [] } },
      { $inc: { n: 1 } },
    ];
    for (let i = 0; i < 50; i++) await items.insertOne({ _id: `i${i}`, merchantId: `m${i % 3}`, status: "open", amount: { total: i }, note: "" });
    for (let round = 0; round < 600; round++) {
      const all = updates();
      const update = all[random(all.length)]!;
      await items.findOneAndUpdate({ _id: `i${random(60)}` }, update, { upsert: random(4) === 0 });
    }
    await store.close();
    const out = columnsOutOfStep(dir, "c_items");
    expect(Object.keys(out).sort()).toEqual(["k:amount.total", "k:flag", "k:merchantId", "k:status", "k:tags"]);
    expect(out).toEqual({ "k:amount.total": 0, "k:flag": 0, "k:merchantId": 0, "k:status": 0, "k:tags": 0 });
  });

  it("answer queries on the new value of an indexed field, and not on the old, after an update", async () => {
    const store = createEmbeddedStore({ logger });
    const items = store.collection<Item>("items");
    await items.createIndex({ keys: { merchantId: 1, status: 1 }, name: "merchant_status" });
    await items.createIndex({ keys: { flag: 1 }, name: "flag" });
    await items.insertOne({ _id: "a", merchantId: "m1", status: "open", flag: true });
    await items.findOneAndUpdate({ _id: "a" }, { $set: { note: "only a field no index reads" } });
    expect(await items.find({ merchantId: "m1", status: "open" })).toHaveLength(1);
    await items.findOneAndUpdate({ _id: "a" }, { $set: { status: "paid", flag: false } });
    expect(await items.find({ merchantId: "m1", status: "open" })).toEqual([]);
    expect((await items.find({ merchantId: "m1", status: "paid" })).map((i) => i._id)).toEqual(["a"]);
    expect((await items.find({ flag: false })).map((i) => i._id)).toEqual(["a"]);
    await items.findOneAndUpdate({ _id: "a" }, { $unset: { merchantId: "" } });
    expect((await items.find({ merchantId: null, status: "paid" })).map((i) => i._id)).toEqual(["a"]);
    expect((items as unknown as EmbeddedCollection<Item>).queryPlan({ merchantId: "m1", status: "paid" })).toContain("USING INDEX c_items$merchant_status");
    await store.close();
  });

  it("move a data folder's indexes on json_extract expressions to key columns when it opens", async () => {
    const dir = await tempDir();
    // A data folder as the store wrote it before key columns: the documents, and the indexes on expressions.
    const db = new Database(join(dir, DATABASE_FILE));
    db.exec(`CREATE TABLE _indexes (collection TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL, PRIMARY KEY (collection, name));
             CREATE TABLE c_merchants (_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL);
             CREATE UNIQUE INDEX "c_merchants$email_unique" ON "c_merchants" (json_extract(doc, '$.email'));
             CREATE INDEX "c_merchants$live_newest" ON "c_merchants" (json_extract(doc, '$.live'), json_extract(doc, '$.n') DESC) WHERE json_extract(doc, '$.live') = 1;`);
    db.prepare("INSERT INTO _indexes VALUES (?, ?, ?)").run("merchants", "email_unique", JSON.stringify({ name: "email_unique", keys: { email: 1 }, unique: true }));
    db.prepare("INSERT INTO _indexes VALUES (?, ?, ?)").run(
      "merchants",
      "live_newest",
      JSON.stringify({ name: "live_newest", keys: { live: 1, n: -1 }, unique: false, partialFilterExpression: { live: true } }),
    );
    for (let n = 0; n < 5; n++) db.prepare("INSERT INTO c_merchants (_id, doc) VALUES (?, ?)").run(`m${n}`, JSON.stringify({ _id: `m${n}`, email: `${n}@x.io`, live: n % 2 === 0, n }));
    db.close();

    const store = createEmbeddedStore({ dir, logger });
    const merchants = store.collection<{ _id: string; email: string; live: boolean; n: number }>("merchants");
    const plan = (merchants as unknown as EmbeddedCollection<{ _id: string }>).queryPlan({ live: true }, { sort: { live: 1, n: -1 } });
    expect(plan).toContain("USING INDEX c_merchants$live_newest");
    expect((await merchants.find({ live: true }, { sort: { live: 1, n: -1 } })).map((m) => m._id)).toEqual(["m4", "m2", "m0"]);
    await expect(merchants.insertOne({ _id: "m9", email: "3@x.io", live: false, n: 9 })).rejects.toMatchObject({ index: "email_unique" });
    await store.close();

    const after = new Database(join(dir, DATABASE_FILE), { readonly: true });
    const definitions = (after.prepare("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name LIKE 'c_merchants$%'").all() as { sql: string }[]).map((r) => r.sql);
    after.close();
    expect(definitions).toHaveLength(2);
    for (const sql of definitions) expect(sql).not.toContain("json_extract");
    expect(columnsOutOfStep(dir, "c_merchants")).toEqual({ "k:email": 0, "k:live": 0, "k:n": 0 });
  });
});
