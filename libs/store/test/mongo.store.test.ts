import { MongoClient } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { type Store } from "../src/index.ts";
import { createMongoStore } from "../src/mongo/index.ts";
import { MongoStoreCollection } from "../src/mongo/mongo.collection.ts";
import { detectServerFlavour } from "../src/mongo/server-flavour.ts";
import { mongoTestUrl, uniqueTestDbName } from "../src/testing/index.ts";
import { runStoreContract } from "./store.contract.ts";

const logger = silentLogger();
const server = await mongoTestUrl();

if (!server.url) {
  describe.skip(`mongo store (${server.skipReason})`, () => {
    it("runs the store contract", () => undefined);
  });
} else {
  const url = server.url;
  const dbName = uniqueTestDbName();
  const probe = new MongoClient(url, { serverSelectionTimeoutMS: 2_000 });
  const flavour = await detectServerFlavour(probe.db(dbName));
  await probe.close();
  const extraStores: Store[] = [];
  afterAll(async () => {
    // The contract drops the database when its own tests end; the tests below recreate it.
    await extraStores[0]?.drop();
    for (const store of extraStores) await store.close();
    await server.stop();
  });

  runStoreContract(`mongo store (${flavour.ferretdb ? "FerretDB" : "MongoDB"} ${flavour.version})`, {
    open: async () => createMongoStore({ url, dbName, logger }),
    // Port 1 refuses connections at once; the 2 s server-selection timeout bounds the wait.
    openUnavailable: () => createMongoStore({ url: "mongodb://127.0.0.1:1", dbName, logger }),
    gaps: flavour.ferretdb
      ? { missingUniqueKeysCollide: "FerretDB v1 (SQLite and PostgreSQL backends) leaves documents missing a unique field out of the index" }
      : {},
  });

  describe("mongo store, strings holding U+0000 (FerretDB on PostgreSQL cannot store them; the adapter escapes)", () => {
    it("stores, matches, updates and deletes them like any other character", async () => {
      const store = createMongoStore({ url, dbName, logger });
      extraStores.push(store);
      const col = store.collection<{ _id: string; s: string; tags?: string[] }>(`nul_${Date.now()}`);
      const odd = "x\u0000y\uE000z\uE0000";
      await col.insertOne({ _id: "a\u0000", s: odd, tags: ["\u0000"] });
      await col.insertOne({ _id: "b", s: "x" });
      expect(await col.findOne({ _id: "a\u0000" })).toEqual({ _id: "a\u0000", s: odd, tags: ["\u0000"] });
      expect(await col.find({ s: { $in: [odd, "nope"] } })).toHaveLength(1);
      expect(await col.findOne({ _id: "\u0000" })).toBeNull();
      expect(await col.countDocuments({ s: { $ne: odd } })).toBe(1);
      expect(await col.findOneAndUpdate({ _id: "b", s: "x" }, { $set: { s: "\u0000" } })).toEqual({ _id: "b", s: "\u0000" });
      expect(await col.findOneAndUpdate({ s: "\u0000" }, { $set: { s: "y" } })).toEqual({ _id: "b", s: "y" });
      expect(await col.deleteOne({ _id: "a\u0000", s: odd })).toBe(true);
    });
  });

  describe("mongo store, updateEach as MongoDB runs it", () => {
    // On FerretDB the contract's updateEach goes through the adapter's locks. The bulk write
    // MongoDB gets is run here on whichever server there is, one caller at a time: FerretDB's
    // updates are not atomic against a racing writer, and this test has none.
    it("sends the writes in one bulk write and counts what matched", async () => {
      const client = new MongoClient(url, { serverSelectionTimeoutMS: 2_000, monitorCommands: true });
      const sent: string[] = [];
      client.on("commandStarted", (event) => sent.push(event.commandName));
      try {
        const driver = client.db(dbName).collection<{ _id: string } & Record<string, unknown>>(`bulk_${Date.now()}`);
        const col = new MongoStoreCollection<{ _id: string; n: number; done?: boolean }>(driver.collectionName, driver, { ferret: async () => undefined });
        for (const id of ["a", "b", "c"]) await col.insertOne({ _id: id, n: 1 });
        sent.length = 0;
        const matched = await col.updateEach([
          { filter: { _id: "a", n: 1 }, update: { $set: { done: true } } },
          { filter: { _id: "b", n: 2 }, update: { $set: { done: true } } },
          { filter: { _id: "c", n: 1 }, update: { $set: { done: true }, $inc: { n: 1 } } },
        ]);
        expect(matched).toBe(2);
        expect(sent).toEqual(["update"]);
        expect(await col.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: "a", n: 1, done: true },
          { _id: "b", n: 1 },
          { _id: "c", n: 2, done: true },
        ]);
        await driver.drop();
      } finally {
        await client.close();
      }
    });
  });

  describe("mongo store, several instances on one database (as several processes)", () => {
    const open = (): Store => {
      const store = createMongoStore({ url, dbName, logger });
      extraStores.push(store);
      return store;
    };

    it("lets exactly one of 50 conditional updates spread over two instances win", async () => {
      const [a, b] = [open(), open()];
      const name = `race_${Date.now()}`;
      await a.collection<{ _id: string; status: string }>(name).insertOne({ _id: "c1", status: "open" });
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 ? a : b).collection(name).findOneAndUpdate({ status: "open" }, { $set: { status: "claimed", winner: i } }),
        ),
      );
      expect(results.filter((r) => r !== null)).toHaveLength(1);
    });

    it("lets exactly one of 50 conditional updates of one _id spread over two instances win", async () => {
      const [a, b] = [open(), open()];
      const name = `race_id_${Date.now()}`;
      await a.collection<{ _id: string; status: string }>(name).insertOne({ _id: "c1", status: "open" });
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 ? a : b).collection(name).findOneAndUpdate({ _id: "c1", status: "open" }, { $set: { status: "claimed", winner: i } }),
        ),
      );
      expect(results.filter((r) => r !== null)).toHaveLength(1);
    });

    it("lets exactly one of 20 racing deletes by a non-_id filter delete", async () => {
      const [a, b] = [open(), open()];
      const name = `race_del_${Date.now()}`;
      await a.collection<{ _id: string; status: string }>(name).insertOne({ _id: "c1", status: "open" });
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).collection(name).deleteOne({ status: "open" })));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it("runs 60 concurrent conditional writes to 60 documents of one collection", async () => {
      // Per-document locks let these run at once. On FerretDB (PostgreSQL) unsorted findAndModify
      // calls beyond its connection pool's size can hang the server for good; the adapter sorts
      // every one (ferretdb-writes.ts).
      const [a, b] = [open(), open()];
      const col = a.collection<{ _id: string; status: string }>(`many_${Date.now()}`);
      for (let i = 0; i < 60; i++) await col.insertOne({ _id: `d${i}`, status: "open" });
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).collection(col.name).findOneAndUpdate({ _id: `d${i}`, status: "open" }, { $set: { status: "done" } })),
      );
      expect(results.every((r) => r !== null)).toBe(true);
    }, 30_000);

    it.runIf(flavour.ferretdb)("FerretDB: a dead lock holder stalls writers of its document only, and only for its lease", async () => {
      const store = open();
      const name = `dead_holder_${Date.now()}`;
      const col = store.collection<{ _id: string; n: number }>(name);
      await col.insertOne({ _id: "a", n: 0 });
      await col.insertOne({ _id: "b", n: 0 });
      // What a killed process leaves behind: its lock on document a, with a 3 s lease. The lock
      // reads the real clock, so the lease must really pass.
      const client = new MongoClient(url, { serverSelectionTimeoutMS: 2_000 });
      const deadUntil = Date.now() + 3_000;
      try {
        await client.db(dbName).collection<{ _id: string; token: string; expiresAt: number; kind: string }>("store_locks").insertOne({ _id: `${name}/a`, token: "dead", expiresAt: deadUntil, kind: "lock" });
      } finally {
        await client.close();
      }
      let aWritten = false;
      const writeA = col.findOneAndUpdate({ _id: "a" }, { $inc: { n: 1 } }).then((doc) => ((aWritten = true), doc));
      expect(await col.findOneAndUpdate({ _id: "b" }, { $inc: { n: 1 } })).toMatchObject({ n: 1 });
      expect(aWritten, "b was written while a's writer still waited for the dead holder's lease").toBe(false);
      expect(await writeA).toMatchObject({ n: 1 });
      expect(Date.now(), "a was written only once the dead holder's lease had ended").toBeGreaterThan(deadUntil);
    }, 20_000);

    it("hands out distinct sequence values across two instances", async () => {
      const [a, b] = [open(), open()];
      const name = `seq_${Date.now()}`;
      const values = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).nextSequence(name)));
      expect([...values].sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    });
  });
}
