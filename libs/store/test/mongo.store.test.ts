import { MongoClient } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { createMongoStore, type Store } from "../src/index.ts";
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
      ? { missingUniqueKeysCollide: "FerretDB v1 (SQLite) leaves documents missing a unique field out of the index" }
      : {},
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

    it("hands out distinct sequence values across two instances", async () => {
      const [a, b] = [open(), open()];
      const name = `seq_${Date.now()}`;
      const values = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).nextSequence(name)));
      expect([...values].sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    });
  });
}
