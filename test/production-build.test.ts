import { execFile, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "./support/until.ts";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** The `dependencies` (not devDependencies) of the root and every workspace package. */
async function productionDependencies(): Promise<Set<string>> {
  const root = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { workspaces: string[]; dependencies?: object };
  const names = new Set(Object.keys(root.dependencies ?? {}));
  for (const pattern of root.workspaces) {
    const folder = join(ROOT, pattern.replace(/\/\*$/, ""));
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const manifest = await readFile(join(folder, entry.name, "package.json"), "utf8").catch(() => null);
      if (manifest) for (const name of Object.keys((JSON.parse(manifest) as { dependencies?: object }).dependencies ?? {})) names.add(name);
    }
  }
  return names;
}

/** The text of `file` and of every chunk it imports statically, transitively (not `import()`). */
async function staticallyLoaded(dir: string, file: string, seen = new Set<string>()): Promise<string[]> {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = await readFile(join(dir, file), "utf8");
  const chunks = [...text.matchAll(/^(?:import|export) [^;]*?from "\.\/([^"]+\.mjs)";/gms)].map((m) => join(dirname(file), m[1]!));
  const nested = await Promise.all(chunks.map((chunk) => staticallyLoaded(dir, chunk, seen)));
  return [text, ...nested.flat()];
}

/**
 * What production runs: `npm run build` compiles bin/payrail.ts into one JavaScript file, and
 * `npm start` with NODE_ENV=production runs it with plain node (no TypeScript loader). Built
 * into a temporary copy of the layout (bin/start.mjs, dist/, node_modules) so the
 * repository's own dist/ is left alone.
 */
describe("the production build", () => {
  let dir: string;
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "payrail-build-"));
    await mkdir(join(dir, "bin"));
    await copyFile(join(ROOT, "bin", "start.mjs"), join(dir, "bin", "start.mjs"));
    // Third-party packages stay imports: they resolve from here as from the image's /app.
    await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  });
  afterAll(async () => {
    if (server && server.exitCode === null) server.kill("SIGKILL");
    await rm(dir, { recursive: true, force: true });
  });

  /** The environment of a production process: no loader, no broker, its own data and port. */
  function productionEnv(): NodeJS.ProcessEnv {
    // Production needs the providers chosen out loud and creates no demo merchant: the admin route makes one.
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PROVIDERS: "sandbox", ADMIN_TOKEN: "build-test-admin", METRICS_PORT: "0", DATA_DIR: join(dir, "data"), PORT: "0", HOST: "127.0.0.1" };
    for (const name of ["NODE_OPTIONS", "AMQP_URL", "MONGODB_URL", "SERVICES", "LOG_LEVEL", "DEMO_MERCHANT"]) delete env[name];
    return env;
  }

  it("refuses to start before the build, naming npm run build", async () => {
    const failed = await run(process.execPath, [join(dir, "bin", "start.mjs")], { env: productionEnv() }).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain("npm run build");
  });

  it("builds JavaScript that serves the API with plain node, then stops cleanly", async () => {
    const outfile = join(dir, "dist", "payrail.mjs");
    await run(process.execPath, ["--import", "tsx", "bin/build.ts", "--outfile", outfile], { cwd: ROOT });
    const entry = await readFile(outfile, "utf8");
    // The live providers' adapters are chunks of their own, so their SDKs load only in live mode.
    const chunks = await readdir(join(dir, "dist", "chunks"));
    const chunkText = await Promise.all(chunks.filter((f) => f.endsWith(".mjs")).map((f) => readFile(join(dir, "dist", "chunks", f), "utf8")));
    expect(entry).not.toMatch(/from "(plaid|twilio|dwolla-v2)"/);
    expect(chunkText.join("\n")).toMatch(/from "plaid"/);
    // So is the MongoDB adapter: a process on the embedded store never loads the driver; nor
    // amqplib (on the in-process bus) or argon2 (until a password is checked).
    const loadedAtStart = await staticallyLoaded(join(dir, "dist"), "payrail.mjs");
    expect(loadedAtStart.join("\n")).not.toMatch(/from "(mongodb|amqplib|@node-rs\/argon2)"/);
    expect(chunkText.join("\n")).toMatch(/from "mongodb"/);
    const bundle = [entry, ...chunkText].join("\n");
    expect(entry.startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect(bundle).not.toMatch(/from "@payrail\//); // our packages are compiled in
    expect(bundle).toMatch(/from "fastify"/); // third-party ones are not
    // The image installs production dependencies only: each import must be one of them.
    const imported = new Set([...bundle.matchAll(/(?:from |import\(?)"([^".][^"]*)"/g)].map((m) => packageName(m[1]!)));
    const declared = await productionDependencies();
    expect([...imported].filter((name) => !name.startsWith("node:") && !declared.has(name))).toEqual([]);

    const child = spawn(process.execPath, [join(dir, "bin", "start.mjs")], { env: productionEnv(), stdio: ["ignore", "pipe", "pipe"] });
    server = child;
    let stdout = "";
    let stderr = "";
    server.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    server.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const exited = once(server, "exit");

    const started = () => /Health and metrics: /.test(stdout);
    await until("the server to start or exit", () => started() || child.exitCode !== null, 20_000, 50).catch(() => undefined);
    if (!started()) throw new Error(`server did not start:\n${stdout}\n${stderr}`);
    expect(stdout).not.toContain("Demo merchant");
    const base = /API:\s+(http:\/\/\S+)/.exec(stdout)![1]!;
    const created = await fetch(`${base}/api/admin/merchants`, {
      method: "POST",
      headers: { "x-admin-token": "build-test-admin", "content-type": "application/json" },
      body: JSON.stringify({ name: "Build test" }),
    });
    expect(created.status).toBe(200);
    const apiKey = ((await created.json()) as { api_key: string }).api_key;

    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: "ok" });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    const list = await fetch(`${base}/api/merchants/checkout`, { headers: { "api-key": apiKey, "x-request-id": "build-test-list" } });
    expect(list.status).toBe(200);
    // The hosted page comes from dist/page/ (the image has no page sources to build from).
    const page = await fetch(`${base}/pay/chk_0`);
    expect(page.status).toBe(200);
    const script = /src="(\/pay\/assets\/main-[0-9a-f]+\.js)"/.exec(await page.text())![1]!;
    expect(await readdir(join(dir, "dist", "page"))).toContain(script.split("/").at(-1));
    expect((await fetch(`${base}${script}`)).status).toBe(200);

    // The embedded store's checkpoint worker runs from the bundle too (it has no file of its own).
    expect(stdout).toContain("WAL checkpoints run in a worker thread");
    server.kill("SIGTERM");
    const [code] = await exited;
    expect(code, stderr).toBe(0);
    const lines = stdout.split("\n").filter((l) => l.startsWith("{"));
    expect(lines.at(-1)).toContain('"msg":"stopped"');
    expect(lines.find((l) => l.includes('"requestId":"build-test-list"'))).toMatch(/"route":"\/api\/merchants\/checkout","status":200/);
    // Two esbuild builds (the service, the hosted page) and a process start: more than the default on a busy machine.
  }, 120_000);
});
