import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@payrail/runtime";
import { createEmbeddedStore } from "@payrail/store";
import { afterEach, describe, expect, it } from "vitest";
import { resolveSecretsKey } from "../../bin/secrets-key.ts";

describe("resolveSecretsKey", () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), "payrail-key-"));
    dirs.push(dir);
    return join(dir, "data");
  };
  afterEach(async () => {
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  it("uses SECRETS_KEY when it is base64 of 32 bytes, and refuses anything else", async () => {
    const key = randomBytes(32);
    const DATA_DIR = await tempDir();
    await expect(resolveSecretsKey({ SECRETS_KEY: key.toString("base64"), DATA_DIR }, { create: false })).resolves.toEqual(key);
    for (const bad of [randomBytes(16).toString("base64"), randomBytes(33).toString("base64"), "not base64 at all, not base64 at all, not b!", key.toString("hex")]) {
      await expect(resolveSecretsKey({ SECRETS_KEY: bad, DATA_DIR }, { create: false }), bad).rejects.toThrow(/SECRETS_KEY must be base64 of 32 random bytes/);
    }
  });

  it("requires SECRETS_KEY with MONGODB_URL: every process sharing the data needs the same key", async () => {
    await expect(resolveSecretsKey({ MONGODB_URL: "mongodb://127.0.0.1:27017", DATA_DIR: await tempDir() }, { create: true })).rejects.toThrow(
      /SECRETS_KEY is required when MONGODB_URL is set/,
    );
  });

  it("generates a key in embedded mode only when asked (payrail start), writing nothing otherwise", async () => {
    const DATA_DIR = await tempDir();
    await expect(resolveSecretsKey({ DATA_DIR }, { create: false })).rejects.toThrow(/has no secrets\.key and SECRETS_KEY is not set: `payrail start` makes one/);
    expect(existsSync(DATA_DIR)).toBe(false);
  });

  it("refuses to generate a key for a data directory that holds data without one (its server took SECRETS_KEY from the environment)", async () => {
    const DATA_DIR = await tempDir();
    const store = createEmbeddedStore({ dir: DATA_DIR, logger: silentLogger() });
    await store.collection("merchants").insertOne({ _id: "mer_1" });
    await store.close();
    const before = await readdir(DATA_DIR);
    for (const create of [true, false]) {
      await expect(resolveSecretsKey({ DATA_DIR }, { create })).rejects.toThrow(`${DATA_DIR} holds Payrail data but no secrets.key, and SECRETS_KEY is not set`);
    }
    expect(await readdir(DATA_DIR)).toEqual(before);
    // With the key it was sealed with, it is that key.
    const key = randomBytes(32);
    await expect(resolveSecretsKey({ DATA_DIR, SECRETS_KEY: key.toString("base64") }, { create: false })).resolves.toEqual(key);
  });

  it("generates a key for a data directory whose store has no document yet (a first start that stopped early)", async () => {
    const DATA_DIR = await tempDir();
    const store = createEmbeddedStore({ dir: DATA_DIR, logger: silentLogger() });
    await store.collection("merchants").createIndex({ keys: { name: 1 } });
    await store.close();
    await expect(resolveSecretsKey({ DATA_DIR }, { create: true })).resolves.toHaveLength(32);
  });

  it("generates a key once in embedded mode, keeps it in DATA_DIR/secrets.key (0600) and reuses it", async () => {
    const DATA_DIR = await tempDir();
    const first = await resolveSecretsKey({ DATA_DIR }, { create: true });
    expect(first).toHaveLength(32);
    const path = join(DATA_DIR, "secrets.key");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(path, "utf8")).trim(), "base64")).toEqual(first);
    await expect(resolveSecretsKey({ DATA_DIR }, { create: true })).resolves.toEqual(first);
  });

  it("agrees on one key when several starts race for the file", async () => {
    const DATA_DIR = await tempDir();
    const keys = await Promise.all(Array.from({ length: 8 }, () => resolveSecretsKey({ DATA_DIR }, { create: true })));
    for (const k of keys) expect(k).toEqual(keys[0]);
  });

  it("refuses a damaged key file instead of replacing it", async () => {
    const DATA_DIR = await tempDir();
    await resolveSecretsKey({ DATA_DIR }, { create: true });
    await writeFile(join(DATA_DIR, "secrets.key"), "garbage\n");
    await expect(resolveSecretsKey({ DATA_DIR }, { create: true })).rejects.toThrow(/secrets\.key must be base64/);
  });
});
