import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payrail } from "../support/payrail-process.ts";

/**
 * A data directory whose server took SECRETS_KEY from the environment holds data and no
 * secrets.key. A command run there without SECRETS_KEY used to write a fresh key beside the data
 * (and seal what it wrote with it); now every command refuses, naming the cause, writing nothing.
 * Only `payrail start` on a data directory without data makes a key.
 */
describe("the CLI on a data directory without its secrets key", () => {
  const SECRETS_KEY = randomBytes(32).toString("base64");
  let root: string;
  let dataDir: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "payrail-nokey-"));
    dataDir = join(root, "data");
    const created = await payrail({ DATA_DIR: dataDir, SECRETS_KEY }, "merchant", "create", "--name", "Keyed by the environment");
    expect(created.code, created.stderr).toBe(0);
    expect(existsSync(join(dataDir, "secrets.key"))).toBe(false);
  }, 120_000);
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("refuses reconcile, check, a merchant command and start without SECRETS_KEY, exit 1, writing no key and no file", async () => {
    const before = (await readdir(dataDir)).sort();
    const runs = await Promise.all([
      payrail({ DATA_DIR: dataDir }, "reconcile"),
      payrail({ DATA_DIR: dataDir }, "check"),
      payrail({ DATA_DIR: dataDir }, "merchant", "list"),
      payrail({ DATA_DIR: dataDir, PORT: "0" }, "start"),
    ]);
    for (const run of runs) {
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stderr).toContain(`payrail: ${dataDir} holds Payrail data but no secrets.key, and SECRETS_KEY is not set`);
      expect(run.stderr).toContain("Set SECRETS_KEY to the key its server uses");
    }
    expect((await readdir(dataDir)).sort()).toEqual(before);
    expect(before).not.toContain("secrets.key");
  }, 120_000);

  it("runs reconcile and check with the server's SECRETS_KEY, still writing no key file", async () => {
    const [reconciled, checked] = [await payrail({ DATA_DIR: dataDir, SECRETS_KEY }, "reconcile"), await payrail({ DATA_DIR: dataDir, SECRETS_KEY }, "check")];
    expect(reconciled.code, reconciled.stderr).toBe(0);
    expect(reconciled.stdout).toContain("checked 0, changed 0, errors 0");
    expect(checked).toMatchObject({ code: 0, stdout: expect.stringContaining("no divergence") });
    expect(existsSync(join(dataDir, "secrets.key"))).toBe(false);
  }, 120_000);

  it("refuses reconcile on a data directory with neither data nor key, pointing at payrail start, and creates nothing", async () => {
    const fresh = join(root, "fresh");
    const run = await payrail({ DATA_DIR: fresh }, "reconcile");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`payrail: ${fresh} has no secrets.key and SECRETS_KEY is not set: \`payrail start\` makes one on its first start`);
    expect(existsSync(fresh)).toBe(false);
  }, 120_000);
});
