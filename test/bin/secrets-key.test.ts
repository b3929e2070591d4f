import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
    await expect(resolveSecretsKey({ SECRETS_KEY: key.toString("base64"), DATA_DIR })).resolves.toEqual(key);
    for (const bad of [randomBytes(16).toString("base64"), randomBytes(33).toString("base64"), "not base64 at all, not base64 at all, not b!", key.toString("hex")]) {
      await expect(resolveSecretsKey({ SECRETS_KEY: bad, DATA_DIR }), bad).rejects.toThrow(/SECRETS_KEY must be base64 of 32 random bytes/);
    }
  });

  it("requires SECRETS_KEY with MONGODB_URL: every process sharing the data needs the same key", async () => {
    await expect(resolveSecretsKey({ MONGODB_URL: "mongodb://127.0.0.1:27017", DATA_DIR: await tempDir() })).rejects.toThrow(
      /SECRETS_KEY is required when MONGODB_URL is set/,
    );
  });

  it("generates a key once in embedded mode, keeps it in DATA_DIR/secrets.key (0600) and reuses it", async () => {
    const DATA_DIR = await tempDir();
    const first = await resolveSecretsKey({ DATA_DIR });
    expect(first).toHaveLength(32);
    const path = join(DATA_DIR, "secrets.key");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(path, "utf8")).trim(), "base64")).toEqual(first);
    await expect(resolveSecretsKey({ DATA_DIR })).resolves.toEqual(first);
  });

  it("agrees on one key when several starts race for the file", async () => {
    const DATA_DIR = await tempDir();
    const keys = await Promise.all(Array.from({ length: 8 }, () => resolveSecretsKey({ DATA_DIR })));
    for (const k of keys) expect(k).toEqual(keys[0]);
  });

  it("refuses a damaged key file instead of replacing it", async () => {
    const DATA_DIR = await tempDir();
    await resolveSecretsKey({ DATA_DIR });
    await writeFile(join(DATA_DIR, "secrets.key"), "garbage\n");
    await expect(resolveSecretsKey({ DATA_DIR })).rejects.toThrow(/secrets\.key must be base64/);
  });
});
