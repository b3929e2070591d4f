import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { createStore, StoreUnavailableError, UnindexedQueryError } from "../src/index.ts";

const logger = silentLogger();

describe("createStore", () => {
  it("uses the embedded store when no MongoDB URL is given", async () => {
    const store = await createStore({ logger });
    await store.collection("things").insertOne({ _id: "1" });
    expect(await store.collection("things").countDocuments({ _id: "1" })).toBe(1);
    expect(await store.collection("things").estimatedCount()).toBe(1);
    await store.close();
  });

  it("fails a query that no declared index serves, and serves it once the index is declared", async () => {
    const store = await createStore({ logger });
    const things = store.collection<{ _id: string; owner: string }>("things");
    await things.insertOne({ _id: "1", owner: "a" });
    await expect(things.find({ owner: "a" })).rejects.toBeInstanceOf(UnindexedQueryError);
    await expect(things.findOneAndUpdate({ owner: "a" }, { $set: { owner: "b" } })).rejects.toBeInstanceOf(UnindexedQueryError);
    await things.createIndex({ keys: { owner: 1 } });
    expect(await things.find({ owner: "a" })).toEqual([{ _id: "1", owner: "a" }]);
    await store.close();
  });

  it("only logs an unserved query in warn mode (production)", async () => {
    const store = await createStore({ logger, indexCheck: "warn" });
    await store.collection("things").insertOne({ _id: "1", owner: "a" } as { _id: string });
    expect(await store.collection("things").countDocuments({ owner: "a" })).toBe(1);
    await store.close();
  });

  // The test's own limit, 10 s, is below the driver's default 30 s server selection: a store
  // that lost its shorter setting would hang here instead of failing.
  it("fails with StoreUnavailableError, not after the driver's 30 s, when the MongoDB URL cannot be reached", async () => {
    await expect(createStore({ mongodbUrl: "mongodb://127.0.0.1:1", logger })).rejects.toBeInstanceOf(StoreUnavailableError);
  }, 10_000);

  it("fails with StoreUnavailableError when the data folder cannot be used", async () => {
    const dir = await mkdtemp(join(tmpdir(), "payrail-store-"));
    try {
      await writeFile(join(dir, "file"), "");
      await expect(createStore({ dataDir: join(dir, "file", "data"), logger })).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
