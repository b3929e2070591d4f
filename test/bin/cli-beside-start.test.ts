import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payrail, startPayrail, type RunningPayrail } from "../support/payrail-process.ts";

/**
 * The README's two terminals (issue 24): `npm start` holds the embedded store in one, the
 * merchant and users commands and `reconcile` run in the other, through the running gateway's
 * admin routes; `check` and `events` open the store beside it (they only read, or ask a replay).
 */
describe("the merchant commands beside a running payrail start", () => {
  let dir: string;
  let running: RunningPayrail;
  let api: string;
  const env = () => ({ DATA_DIR: join(dir, "data") });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "payrail-cli-beside-"));
    // No ADMIN_TOKEN: the admin routes are off for everyone but the CLI.
    running = await startPayrail({ ...env(), PORT: "0" }, /api-key: sk_test_\w+/);
    api = /API: +(http:\/\/\S+)/.exec(running.output())![1]!;
  }, 90_000);
  afterAll(async () => {
    await running?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("creates a merchant, lists it, issues, lists and revokes its keys, and the API honours them at once", async () => {
    const created = await payrail(env(), "merchant", "create", "--name", "Beside Co");
    expect(created.code, created.stderr).toBe(0);
    const id = /merchant (mer_[0-9a-f]{32}) \(Beside Co\)/.exec(created.stdout)![1]!;
    const first = /api-key \(shown once\): (sk_test_\w+)/.exec(created.stdout)![1]!;
    const checkouts = (key: string) => fetch(`${api}/api/merchants/checkout`, { headers: { "api-key": key } });
    expect((await checkouts(first)).status).toBe(200);

    const listed = await payrail(env(), "merchant", "list", "--limit", "5");
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${id}  \\S+  Beside Co$`, "m"));
    expect(listed.stdout).toMatch(/ {2}Demo merchant$/m);

    const issued = await payrail(env(), "merchant", "key", "--id", id);
    expect(issued.code, issued.stderr).toBe(0);
    const second = /api-key \(shown once\): (sk_test_\w+)/.exec(issued.stdout)![1]!;
    const revoked = await payrail(env(), "merchant", "revoke", "--id", id, "--prefix", first.slice(0, 16));
    expect(revoked).toMatchObject({ code: 0, stdout: `revoked ${first.slice(0, 16)}\n` });
    const keys = await payrail(env(), "merchant", "keys", "--id", id);
    expect(keys.code, keys.stderr).toBe(0);
    expect(keys.stdout).toMatch(new RegExp(`^${first.slice(0, 16)}  test  created \\S+  revoked \\S+$`, "m"));
    expect(keys.stdout).toMatch(new RegExp(`^${second.slice(0, 16)}  test  created \\S+  active$`, "m"));
    // Its last line ends, so the shell's prompt starts on a line of its own.
    expect(keys.stdout).toMatch(/\n$/);
    expect((await checkouts(second)).status).toBe(200);
    expect((await checkouts(first)).status).toBe(401);
  }, 120_000);

  it("invites and lists a merchant's dashboard users, and the invitation link opens the set-password page", async () => {
    const created = await payrail(env(), "merchant", "create", "--name", "Team Co");
    const id = /merchant (mer_[0-9a-f]{32}) \(Team Co\)/.exec(created.stdout)![1]!;
    const invited = await payrail(env(), "users", "invite", "--id", id, "--email", "ana@team.example", "--role", "viewer", "--url", api);
    expect(invited.code, invited.stderr).toBe(0);
    expect(invited.stdout).toMatch(/^user \S+ \(ana@team\.example, viewer\) invited until \S+$/m);
    const link = /invitation link \(shown once\): (http\S+)/.exec(invited.stdout)![1]!;
    expect(link.startsWith(`${api}/`)).toBe(true);
    expect((await fetch(link)).status).toBe(200);
    const listed = await payrail(env(), "users", "list", "--id", id);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^\S+ {2}viewer {2}invited {2}ana@team\.example$/m);
  }, 120_000);

  it("answers an unknown merchant with the API's words", async () => {
    const unknown = await payrail(env(), "merchant", "keys", "--id", `mer_${"0".repeat(32)}`);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^payrail: .*\(merchant_not_found\)$/m);
  }, 120_000);

  it("changes a merchant's funding sources through the admin routes", async () => {
    const created = await payrail(env(), "merchant", "create", "--name", "Bank Co", "--payout-bank", "https://api.dwolla.com/funding-sources/beside-old-bank");
    const id = /merchant (mer_[0-9a-f]{32}) \(Bank Co\)/.exec(created.stdout)![1]!;
    const moved = await payrail(env(), "merchant", "update", "--id", id, "--destination", "https://api.dwolla.com/funding-sources/beside-balance", "--no-payout-bank");
    expect(moved).toMatchObject({ code: 0, stdout: `merchant ${id} (Bank Co)\ndestination: https://api.dwolla.com/funding-sources/beside-balance\npayout bank: none\n` });
  }, 120_000);

  it("runs reconcile through the running process, and check and events on its store beside it", async () => {
    const reconciled = await payrail(env(), "reconcile", "--after", "0s");
    expect(reconciled.code, reconciled.stderr).toBe(0);
    expect(reconciled.stdout).toMatch(/^checked \d+, changed \d+, errors 0$/m);
    const check = await payrail(env(), "check");
    expect(check, check.stderr).toMatchObject({ code: 0, stdout: "no divergence\n" });
    const letters = await payrail(env(), "events", "dead-letters");
    expect(letters, letters.stderr).toMatchObject({ code: 0, stdout: "no dead events\n" });
    const replay = await payrail(env(), "events", "replay");
    expect(replay, replay.stderr).toMatchObject({ code: 0, stdout: "no dead letter matched\n" });
    // The running process still serves after the second process closed the store.
    expect((await fetch(`${api}/readyz`)).status).toBe(200);
  }, 120_000);

  it("keeps the CLI's admin token owner-only in DATA_DIR, accepted by the admin routes but not documented in /docs", async () => {
    const path = join(dir, "data", "cli-access.json");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const access = JSON.parse(await readFile(path, "utf8")) as { url: string; adminToken: string };
    expect((await fetch(`${api}/api/admin/merchants`, { headers: { "x-admin-token": access.adminToken } })).status).toBe(200);
    expect((await fetch(`${api}/api/admin/merchants`, { headers: { "x-admin-token": "guess" } })).status).toBe(401);
    const doc = (await (await fetch(`${api}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/api/admin"))).toEqual([]);
  });
});
