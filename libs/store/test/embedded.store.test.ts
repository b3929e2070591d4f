import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { createEmbeddedStore, DuplicateKeyError, StoreUnavailableError } from "../src/index.ts";
import { runStoreContract } from "./store.contract.ts";

const logger = silentLogger();
const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "payrail-store-"));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

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
  it("keeps documents, unique indexes and sequences across close and reopen", async () => {
    const dir = await tempDir();
    const first = createEmbeddedStore({ dir, logger });
    const col = first.collection<{ _id: string; email: string }>("merchants");
    await col.createIndex({ keys: { email: 1 }, unique: true, name: "email_unique" });
    await col.insertOne({ _id: "m1", email: "a@x.io" });
    await first.nextSequence("checkout");
    await first.close();

    const second = createEmbeddedStore({ dir, logger });
    const reopened = second.collection<{ _id: string; email: string }>("merchants");
    expect(await reopened.find({})).toEqual([{ _id: "m1", email: "a@x.io" }]);
    await expect(reopened.insertOne({ _id: "m2", email: "a@x.io" })).rejects.toMatchObject({ index: "email_unique" });
    expect(await second.nextSequence("checkout")).toBe(2);
    await second.close();
  });

  it("compacts the datafile on close, so 200 updates of one document leave one line", async () => {
    const dir = await tempDir();
    const store = createEmbeddedStore({ dir, logger });
    const col = store.collection<{ _id: string; n?: number }>("counting");
    await col.insertOne({ _id: "one" });
    for (let i = 0; i < 200; i++) await col.findOneAndUpdate({ _id: "one" }, { $inc: { n: 1 } });
    await store.close();
    const lines = (await readFile(join(dir, "counting.db"), "utf8")).trim().split("\n");
    expect(lines).toEqual([JSON.stringify({ _id: "one", n: 200 })]);
  });

  it("compacts periodically while running", async () => {
    const dir = await tempDir();
    const store = createEmbeddedStore({ dir, logger, compactIntervalMs: 50 });
    const col = store.collection<{ _id: string; n?: number }>("ticking");
    await col.insertOne({ _id: "one" });
    for (let i = 0; i < 50; i++) await col.findOneAndUpdate({ _id: "one" }, { $inc: { n: 1 } });
    await sleep(300);
    const lines = (await readFile(join(dir, "ticking.db"), "utf8")).trim().split("\n");
    expect(lines).toHaveLength(1);
    await store.close();
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
});
