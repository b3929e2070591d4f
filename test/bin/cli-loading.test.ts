import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runNode, type Run } from "../support/payrail-process.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const LOADED_MODULES = fileURLToPath(new URL("../support/loaded-modules.mjs", import.meta.url));

/** What no command loads unless its action needs it (issue 39): the services, the database and broker drivers, fastify, mail. */
const HEAVY: Record<string, RegExp> = {
  // All but the webhooks' signing helper, exported on its own for `listen` (@payrail/webhooks/signing).
  "a service": /\/services\/[^/]+\/src\/(?!domain\/signing-secret\.ts$)/,
  "the store": /\/libs\/store\//,
  "the transport": /\/libs\/messaging\//,
  fastify: /\/node_modules\/(fastify|@fastify)\//,
  "the mongodb driver": /\/node_modules\/mongodb\//,
  "the SQLite driver": /\/node_modules\/better-sqlite3\//,
  amqplib: /\/node_modules\/amqplib\//,
  nodemailer: /\/node_modules\/nodemailer\//,
};

/** The heavy parts among the URLs loaded. */
const heavyIn = (urls: string[]) => Object.keys(HEAVY).filter((name) => urls.some((url) => HEAVY[name]!.test(url)));

/**
 * Each command's module is loaded only when that command runs, and loads what its action uses
 * when it runs: checked by what the process loads (a loader hook, test/support/loaded-modules.mjs),
 * never by how long it takes.
 */
describe("what a payrail command loads", () => {
  let dir: string;
  let n = 0;
  const SECRETS_KEY = randomBytes(32).toString("base64");

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "payrail-loading-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** `payrail <args>` from the sources (as the CLI tests run it): its run, and the URLs of the modules it loaded. */
  async function loadedBy(env: Record<string, string>, ...args: string[]): Promise<Run & { urls: string[] }> {
    const file = join(dir, `loaded-${++n}.txt`);
    const run = await runNode({ ...env, LOADED_MODULES_FILE: file }, ["--import", "tsx", "--import", LOADED_MODULES, join(ROOT, "bin/payrail.ts"), ...args]);
    const urls = (await readFile(file, "utf8").catch(() => "")).split("\n").filter(Boolean);
    return { ...run, urls };
  }

  it("answers --help with commander and the launcher alone", async () => {
    const help = await loadedBy({ DATA_DIR: join(dir, "data") }, "--help");
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining("merchant") });
    const ours = help.urls.filter((url) => url.startsWith(`file://${ROOT}`) && !url.includes("/node_modules/"));
    expect(ours.map((url) => url.slice(`file://${ROOT}`.length))).toEqual(["bin/payrail.ts"]);
    expect(help.urls.filter((url) => url.includes("/node_modules/") && !/\/node_modules\/(commander|tsx)\//.test(url))).toEqual([]);
  }, 60_000);

  it.each([
    "merchant keys --help",
    "users invite --help",
    "trigger --help",
    "listen --help",
    "compliance export --help",
    "reconcile --help",
    "check --help",
    "indexes --help",
    "events dead-letters --help",
    "start --help",
  ])("answers %s loading none of the services, drivers or fastify", async (command) => {
    const run = await loadedBy({ DATA_DIR: join(dir, "data") }, ...command.split(" "));
    expect(run, run.stderr).toMatchObject({ code: 0, stdout: expect.stringContaining(`Usage: payrail ${command.replace(" --help", "")}`) });
    expect(heavyIn(run.urls)).toEqual([]);
  }, 60_000);

  it("runs merchant keys beside a running Payrail through its admin routes, loading no service, store or transport", async () => {
    // This test process stands for the `payrail start` that holds the data directory (it is a
    // living node process), and a server of its own answers as that start's gateway would.
    const data = join(dir, "beside");
    const seen: string[] = [];
    const server: Server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers["x-admin-token"]}`);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ data: [{ key_prefix: "sk_test_abcdefgh", livemode: false, created_at: "2026-01-02T03:04:05.000Z", revoked_at: null }] }));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const { port } = server.address() as { port: number };
      await mkdir(data, { recursive: true });
      await writeFile(join(data, "payrail.pid"), `${process.pid}\n`);
      await writeFile(join(data, "cli-access.json"), JSON.stringify({ pid: process.pid, url: `http://127.0.0.1:${port}`, adminToken: "cli-token" }));
      const id = `mer_${"0".repeat(32)}`;
      const keys = await loadedBy({ DATA_DIR: data }, "merchant", "keys", "--id", id);
      expect(keys, keys.stderr).toMatchObject({ code: 0, stdout: expect.stringContaining("sk_test_abcdefgh  test  created 2026-01-02T03:04:05.000Z  active") });
      expect(seen).toEqual([`GET /api/admin/merchants/${id}/api_keys cli-token`]);
      expect(heavyIn(keys.urls)).toEqual([]);
    } finally {
      server.close();
    }
  }, 60_000);

  it("loads the store and identity, and no other service, when it runs identity itself (the hook sees what it should)", async () => {
    const list = await loadedBy({ DATA_DIR: join(dir, "own"), SECRETS_KEY }, "merchant", "list");
    expect(list, list.stderr).toMatchObject({ code: 0 });
    expect(heavyIn(list.urls)).toEqual(["a service", "the store", "the transport", "the SQLite driver"]);
    const services = new Set(list.urls.map((url) => /\/services\/([^/]+)\/src\//.exec(url)?.[1]).filter(Boolean));
    expect([...services]).toEqual(["identity"]);
  }, 60_000);
});
