import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { createStore, StoreUnavailableError } from "../src/index.ts";

const logger = silentLogger();

describe("createStore", () => {
  it("uses the embedded store when no MongoDB URL is given", async () => {
    const store = await createStore({ logger });
    await store.collection("things").insertOne({ _id: "1" });
    expect(await store.collection("things").countDocuments({})).toBe(1);
    await store.close();
  });

  it("fails within 5 s with StoreUnavailableError when the MongoDB URL cannot be reached", async () => {
    const started = Date.now();
    await expect(createStore({ mongodbUrl: "mongodb://127.0.0.1:1", logger })).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

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
