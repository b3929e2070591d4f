import { spawn } from "node:child_process";
import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { createEmbeddedStore, DuplicateKeyError, StoreUnavailableError } from "../src/index.ts";
import type { EmbeddedCollection } from "../src/embedded/embedded.collection.ts";
import { SqliteHost } from "../src/embedded/sqlite-host.ts";
import { runStoreContract } from "./store.contract.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const logger = silentLogger();
const here = dirname(fileURLToPath(import.meta.url));
const tempDir = tempDirs("payrail-store-");

/** A path that can never be a folder: it lies under a regular file. */
async function unusableDir(): Promise<string> {
  const file = join(await tempDir(), "a-file");
  await writeFile(file, "");
  return join(file, "data");
}
const blocked = await unusableDir();

runStoreContract("embedded store (in memory)", {
  open: async () => createEmbeddedStore({ logger }),
  openUnavailable: () => createEmbeddedStore({ dir: blocked, logger }),
});

runStoreContract("embedded store (files)", {
  open: async () => createEmbeddedStore({ dir: await tempDir(), logger }),
  openUnavailable: () => createEmbeddedStore({ dir: blocked, logger }),
});

describe("embedded store on disk", () => {
  it("keeps documents, unique indexes and sequences across close and reopen, in owner-only files", async () => {
    const dir = await tempDir();
    const first = createEmbeddedStore({ dir, logger });
    const col = first.collection<{ _id: string; email: string }>("merchants");
    await col.createIndex({ keys: { email: 1 }, unique: true, name: "email_unique" });
    await col.insertOne({ _id: "m1", email: "a@x.io" });
    await first.nextSequence("checkout");
    for (const file of ["payrail.sqlite", "payrail.sqlite-wal"]) expect((await stat(join(dir, file))).mode & 0o777, file).toBe(0o600);
    await first.close();

    const second = createEmbeddedStore({ dir, logger });
    const reopened = second.collection<{ _id: string; email: string }>("merchants");
    expect(await reopened.find({})).toEqual([{ _id: "m1", email: "a@x.io" }]);
    await expect(reopened.insertOne({ _id: "m2", email: "a@x.io" })).rejects.toMatchObject({ index: "email_unique" });
    expect(await second.nextSequence("checkout")).toBe(2);
    await second.close();
  });

  it("reports a folder it cannot use, and a closed store, as unavailable", async () => {
    const store = createEmbeddedStore({ dir: blocked, logger });
    await expect(store.collection("x").find({})).rejects.toBeInstanceOf(StoreUnavailableError);
    const closed = createEmbeddedStore({ logger });
    await closed.close();
    await expect(closed.collection("x").insertOne({ _id: "1" })).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(closed.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it("drops every collection's documents and indexes, including ones not opened in this run", async () => {
    const dir = await tempDir();
    const first = createEmbeddedStore({ dir, logger });
    await first.collection("a").createIndex({ keys: { k: 1 }, unique: true });
    await first.collection("a").insertOne({ _id: "1", k: 1 } as { _id: string });
    await first.close();
    const second = createEmbeddedStore({ dir, logger });
    await second.drop();
    expect(await second.collection("a").countDocuments({})).toBe(0);
    await second.collection("a").insertOne({ _id: "2", k: 1 } as { _id: string });
    await expect(second.collection("a").insertOne({ _id: "2" })).rejects.toBeInstanceOf(DuplicateKeyError);
    await second.collection("a").insertOne({ _id: "3", k: 1 } as { _id: string });
    await second.close();
  });

  it("keeps every acknowledged write when the process is killed (SIGKILL) mid-burst", async () => {
    const dir = await tempDir();
    const child = spawn(process.execPath, ["--import", "tsx", join(here, "support", "write-burst.child.ts"), dir], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const acknowledged: string[] = [];
    let partial = "";
    await new Promise<void>((resolve, reject) => {
      child.on("error", reject);
      child.on("exit", () => resolve());
      child.stdout.on("data", (chunk: Buffer) => {
        const lines = (partial + chunk.toString()).split("\n");
        partial = lines.pop() ?? "";
        acknowledged.push(...lines);
        if (acknowledged.length >= 2_000) child.kill("SIGKILL");
      });
    });
    expect(child.signalCode).toBe("SIGKILL");
    const store = createEmbeddedStore({ dir, logger });
    const col = store.collection<{ _id: string; n: number; touched?: boolean }>("burst");
    const missing: string[] = [];
    for (const id of acknowledged) {
      const doc = await col.findOne({ _id: id });
      if (doc?.touched !== true) missing.push(id);
    }
    expect(missing).toEqual([]);
    await store.close();
  });

  it("imports an nedb data folder on first open and moves the old files aside", async () => {
    const dir = await tempDir();
    const lines = [
      { _id: "c1", merchantId: "m1", number: 1, createdAt: { $$date: Date.UTC(2024, 0, 2) } },
      { _id: "c2", merchantId: "m1", number: 2, items: [{ sku: "x" }] },
      { _id: "c1", merchantId: "m1", number: 1, status: "paid" },
      { $$deleted: true, _id: "c2" },
      { _id: "c3", merchantId: "m2", number: 3 },
      { $$indexCreated: { fieldName: "merchantId" } },
    ];
    await writeFile(join(dir, "checkouts.db"), lines.map((l) => JSON.stringify(l)).join("\n") + "\n{\"_id\": \"torn");
    await writeFile(join(dir, "counters.db"), JSON.stringify({ _id: "checkout_number", seq: 3 }) + "\n");
    await writeFile(join(dir, "_indexes.meta"), JSON.stringify({ _id: "checkouts/x", collection: "checkouts" }) + "\n");

    const store = createEmbeddedStore({ dir, logger });
    const checkouts = store.collection<{ _id: string; merchantId: string }>("checkouts");
    expect(await checkouts.find({ merchantId: "m1" })).toEqual([{ _id: "c1", merchantId: "m1", number: 1, status: "paid" }]);
    expect(await checkouts.findOne({ _id: "c3" })).toMatchObject({ merchantId: "m2" });
    expect(await store.nextSequence("checkout_number")).toBe(4);
    await store.close();

    const files = await readdir(dir);
    expect(files.filter((f) => f.endsWith(".db") || f.endsWith(".meta"))).toEqual([]);
    const backup = files.find((f) => f.startsWith("nedb-backup-"));
    expect((await readdir(join(dir, backup!))).sort()).toEqual(["_indexes.meta", "checkouts.db", "counters.db"]);

    // A second open finds nothing to import and keeps the data.
    const again = createEmbeddedStore({ dir, logger });
    expect(await again.collection("checkouts").estimatedCount()).toBe(2);
    await again.close();
  });

  it("refuses to open a folder whose nedb file is unreadable, naming the file", async () => {
    const dir = await tempDir();
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "checkouts.db"), "not json\n" + JSON.stringify({ _id: "a" }) + "\n" + JSON.stringify({ _id: "b" }) + "\n");
    const store = createEmbeddedStore({ dir, logger });
    await expect(store.ping()).rejects.toThrow(/checkouts\.db: line 1 is not JSON/);
    await store.close();
  });
});

describe("embedded store's transactions", () => {
  it("shares a read snapshot within one turn only: a later turn sees another connection's commit, and the WAL is not held back", async () => {
    const dir = await tempDir();
    const reader = new SqliteHost(dir, logger);
    const writer = new SqliteHost(dir, logger);
    reader.db().exec("CREATE TABLE t (v TEXT NOT NULL)");
    const count = () => reader.read("t", () => (reader.prepare("SELECT count(*) AS n FROM t").get() as { n: number }).n);

    expect(count()).toBe(0); // opens this turn's read transaction
    writer.db().prepare("INSERT INTO t (v) VALUES ('a')").run(); // another connection commits
    expect(count()).toBe(0); // same turn, same snapshot
    await new Promise((resolve) => setImmediate(resolve));
    expect(count()).toBe(1);

    // Once the turn's read has ended, a checkpoint copies the whole WAL.
    await new Promise((resolve) => setImmediate(resolve));
    const [result] = writer.db().pragma("wal_checkpoint(PASSIVE)") as { log: number; checkpointed: number }[];
    expect(result!.checkpointed).toBe(result!.log);
    await writer.close();
    await reader.close();
  });

  it("ends the turn's read before a commit, so a read after it sees the write", async () => {
    const host = new SqliteHost(await tempDir(), logger);
    host.db().exec("CREATE TABLE t (v TEXT NOT NULL)");
    const values = () => host.read("t", () => (host.prepare("SELECT v FROM t").all() as { v: string }[]).map((r) => r.v));
    expect(values()).toEqual([]);
    const written = host.write("t", () => host.prepare("INSERT INTO t (v) VALUES ('a')").run(), "last-statement");
    expect(values()).toEqual([]); // not committed yet
    await written;
    expect(values()).toEqual(["a"]);
    await host.close();
  });

  it("fails the whole batch when one write takes the transaction with it, committing none of the batch", async () => {
    const host = new SqliteHost(await tempDir(), logger);
    host.db().exec("CREATE TABLE t (v TEXT NOT NULL UNIQUE)");
    const insert = (v: string) => () => host.prepare("INSERT INTO t (v) VALUES (?)").run(v);
    const values = () => (host.db().prepare("SELECT v FROM t ORDER BY v").all() as { v: string }[]).map((r) => r.v);

    const lost = await Promise.allSettled([
      host.write("t", insert("a"), "last-statement"),
      // What SQLite does on some full-disk and I/O errors: it rolls back the whole transaction,
      // not only the failing statement.
      host.write(
        "t",
        () => {
          host.db().exec("ROLLBACK");
          throw new Error("disk I/O error");
        },
        "last-statement",
      ),
      host.write("t", insert("c"), "last-statement"),
      host.write("t", insert("d")),
    ]);
    expect(lost.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
    expect(values()).toEqual([]);

    // The next batch commits, and a duplicate in it undoes only itself, with or without a savepoint.
    const kept = await Promise.allSettled([
      host.write("t", insert("e"), "last-statement"),
      host.write("t", insert("e"), "last-statement"),
      host.write("t", () => (insert("f")(), insert("e")())),
      host.write("t", insert("g")),
    ]);
    expect(kept.map((r) => r.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
    for (const r of kept) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(DuplicateKeyError);
    expect(values()).toEqual(["e", "g"]);
    await host.close();
  });
});

describe("embedded store query plans", () => {
  it("answers the services' query shapes through their indexes, never a full scan or a sort", async () => {
    const store = createEmbeddedStore({ logger });
    const col = store.collection<{ _id: string }>("planned") as unknown as EmbeddedCollection<{ _id: string }>;
    await col.createIndex({ keys: { merchantId: 1, number: -1 }, name: "merchant_newest" });
    await col.createIndex({ keys: { merchantId: 1, merchantCheckoutId: 1 }, unique: true, name: "merchant_checkout_id" });
    await col.createIndex({ keys: { userId: 1, createdAt: -1 }, name: "user_newest" });
    const plans = [
      col.queryPlan({ _id: "chk_1", merchantId: "m" }),
      col.queryPlan({ merchantId: "m" }, { sort: { number: -1 }, limit: 21 }),
      col.queryPlan({ merchantId: "m", number: { $lt: 500 } }, { sort: { number: -1 }, limit: 21 }),
      col.queryPlan({ merchantId: "m", merchantCheckoutId: "order-1" }),
      col.queryPlan({ userId: "u" }, { sort: { createdAt: -1 }, limit: 100 }),
    ];
    for (const plan of plans) {
      expect(plan).toMatch(/SEARCH .* USING (INDEX|COVERING INDEX|PRIMARY KEY)/);
      expect(plan).not.toMatch(/SCAN|TEMP B-TREE/);
    }
    await store.close();
  });
});
