import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@payrail/runtime";
import { createEmbeddedStore } from "@payrail/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payrail as run } from "../support/payrail-process.ts";

/**
 * `payrail <args>` in a child process, on its own embedded store under `dataDir`, with the key of
 * a server configured by its environment (only `payrail start` makes a key file).
 */
const SECRETS_KEY = randomBytes(32).toString("base64");
const payrail = (dataDir: string, ...args: string[]) => run({ DATA_DIR: dataDir, SECRETS_KEY }, ...args);

describe("the payrail command line", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "payrail-cli-"));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("answers help and refuses bad arguments before touching a data directory another process holds", async () => {
    const held = join(root, "held");
    await mkdir(held, { recursive: true });
    // This (living) test process "holds" the directory, as `payrail start` would.
    await writeFile(join(held, "payrail.pid"), String(process.pid));
    const [startHelp, keysHelp, badId, missing, badBank] = await Promise.all([
      payrail(held, "start", "--help"),
      payrail(held, "merchant", "keys", "--help"),
      payrail(held, "merchant", "keys", "--id", "nope"),
      payrail(held, "merchant", "create"),
      payrail(held, "merchant", "update", "--id", `mer_${"0".repeat(32)}`, "--payout-bank", "nope"),
    ]);
    expect(startHelp).toMatchObject({ code: 0, stdout: expect.stringContaining("Usage: payrail start") });
    expect(startHelp.stdout).toContain("AMQP_URL");
    expect(keysHelp).toMatchObject({ code: 0, stdout: expect.stringContaining("Usage: payrail merchant keys") });
    expect(badId).toMatchObject({ code: 2, stderr: expect.stringContaining("a merchant id is mer_") });
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining("required option '--name <name>'") });
    expect(badBank).toMatchObject({ code: 2, stderr: expect.stringContaining("an absolute URL") });
    for (const run of [startHelp, keysHelp, badId, missing, badBank]) expect(`${run.stdout}${run.stderr}`).not.toMatch(/holds/);
    // A command that needs the store is the one refused.
    const list = await payrail(held, "merchant", "list");
    expect(list).toMatchObject({ code: 1, stderr: expect.stringContaining(`holds ${held}`) });
  }, 120_000);

  it("creates a merchant, lists merchants, issues and lists its keys on the embedded store", async () => {
    const dir = join(root, "own");
    const created = await payrail(dir, "merchant", "create", "--name", "Acme CLI");
    expect(created.code, created.stderr).toBe(0);
    const id = /merchant (mer_[0-9a-f]{32})/.exec(created.stdout)![1]!;
    const key = /api-key \(shown once\): (sk_test_\w+)/.exec(created.stdout)![1]!;
    const listed = await payrail(dir, "merchant", "list");
    expect(listed.stdout).toMatch(new RegExp(`^${id}  \\S+  Acme CLI$`, "m"));
    // The services it started stop before the store closes: no warning of a poll that met a closed store.
    expect(listed.stderr).toBe("");
    const keys = await payrail(dir, "merchant", "keys", "--id", id);
    expect(keys.code, keys.stderr).toBe(0);
    expect(keys.stdout).toContain(`${key.slice(0, 16)}  test  created`);
    expect(keys.stdout).toContain("active");
    expect(keys.stdout).not.toContain(key);
    // Its last line ends, so the shell's prompt starts on a line of its own.
    expect(keys.stdout).toMatch(/active\n$/);
  }, 120_000);

  it("changes a merchant's funding sources: a URL sets one, --no-… clears it, one not named stays", async () => {
    const dir = join(root, "funding");
    const balance = "https://api.dwolla.com/funding-sources/cli-balance";
    const created = await payrail(dir, "merchant", "create", "--name", "Moving Co", "--destination", balance, "--payout-bank", "https://api.dwolla.com/funding-sources/cli-old-bank");
    expect(created.code, created.stderr).toBe(0);
    const id = /merchant (mer_[0-9a-f]{32})/.exec(created.stdout)![1]!;
    const moved = await payrail(dir, "merchant", "update", "--id", id, "--payout-bank", "https://api.dwolla.com/funding-sources/cli-new-bank");
    expect(moved).toMatchObject({
      code: 0,
      stdout: `merchant ${id} (Moving Co)\ndestination: ${balance}\npayout bank: https://api.dwolla.com/funding-sources/cli-new-bank\n`,
    });
    const cleared = await payrail(dir, "merchant", "update", "--id", id, "--no-payout-bank");
    expect(cleared).toMatchObject({ code: 0, stdout: `merchant ${id} (Moving Co)\ndestination: ${balance}\npayout bank: none\n` });
    const unknown = await payrail(dir, "merchant", "update", "--id", `mer_${"0".repeat(32)}`, "--no-destination");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^payrail: no merchant mer_0{32}$/m);
  }, 120_000);

  it("runs a reconciler pass and a consistency check on the embedded store, and check exits 1 on a divergence", async () => {
    const dir = join(root, "reconcile");
    const reconciled = await payrail(dir, "reconcile", "--after", "0");
    expect(reconciled.code, reconciled.stderr).toBe(0);
    expect(reconciled.stdout).toContain("checked 0, changed 0, errors 0");
    const clean = await payrail(dir, "check", "--grace", "0");
    expect(clean).toMatchObject({ code: 0, stdout: expect.stringContaining("no divergence") });

    // A settled payment whose checkout never followed: written straight into the store.
    const store = createEmbeddedStore({ dir, logger: silentLogger() });
    const at = new Date(Date.now() - 120_000).toISOString();
    await store.collection("transfer_attempts").insertOne({ _id: "chk_1", transactionUuid: "sc-1", transferId: "t-1", completed: true, updatedAt: at, leaseUntil: null } as never);
    await store.collection("transactions").insertOne({ _id: "sc-1", transaction_status: "completed", checkoutRef: "chk_1", amountCents: 100, created_at: at, updated_at: at } as never);
    await store.collection("checkouts").insertOne({ _id: "chk_1", status: "transfer_pending", transfer: { transaction_uuid: "sc-1", status: "pending" }, updatedAt: at } as never);
    await store.close();
    const diverged = await payrail(dir, "check");
    expect(diverged.code).toBe(1);
    expect(diverged.stdout).toMatch(/^checkout_not_following_transaction chk_1: transaction sc-1 is completed, the checkout is transfer_pending/m);
    expect(diverged.stdout).toMatch(/^event_missing sc-1: no transaction.created event/m);
    expect(diverged.stdout).toMatch(/divergences$/m);
    expect((await payrail(dir, "check", "--grace", "nope")).code).toBe(2);
  }, 120_000);
});
