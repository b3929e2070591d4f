import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runNode } from "../support/payrail-process.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const LOADED_MODULES = fileURLToPath(new URL("../support/loaded-modules.mjs", import.meta.url));

/**
 * `npm run payrail` (bin/cli.mjs) runs the compiled CLI and builds it again whenever a file it
 * was compiled from reads otherwise: a developer edits a file and runs the command again. Run
 * on a copy of bin/ and package.json (the libraries, services and node_modules linked), so that the edit is the
 * copy's, with a build cache of its own.
 */
describe("npm run payrail's compiled CLI", () => {
  let dir: string;
  let cache: string;
  let n = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "payrail-cli-build-"));
    cache = join(dir, "cache");
    await cp(join(ROOT, "bin"), join(dir, "bin"), { recursive: true });
    await cp(join(ROOT, "package.json"), join(dir, "package.json"));
    for (const linked of ["libs", "services", "node_modules"]) await symlink(join(ROOT, linked), join(dir, linked), "dir");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** `node bin/cli.mjs <args>` in the copy: its run, and the modules it loaded. */
  async function cli(...args: string[]) {
    const file = join(dir, `loaded-${++n}.txt`);
    const env = { PAYRAIL_CLI_CACHE: cache, DATA_DIR: join(dir, "data"), LOADED_MODULES_FILE: file };
    // A build takes seconds; a loaded machine may take many.
    const run = await runNode(env, ["--import", LOADED_MODULES, join(dir, "bin", "cli.mjs"), ...args], 180_000);
    const urls = (await readFile(file, "utf8").catch(() => "")).split("\n").filter(Boolean);
    return { ...run, urls, built: urls.some((url) => url.endsWith("/bin/build/bundle-launcher.ts")) };
  }
  const builds = async () => (await readdir(join(cache, "builds"))).filter((name) => !name.startsWith(".tmp-")).sort();
  const state = async () => JSON.parse(await readFile(join(cache, "current.json"), "utf8")) as { digest: string; inputs: string[] };

  it("builds on the first run, then runs that build while the sources read the same", async () => {
    const first = await cli("--help");
    expect(first, first.stderr).toMatchObject({ code: 0, stdout: expect.stringContaining("report every divergence") });
    expect(first.built).toBe(true);
    const { digest, inputs } = await state();
    expect(await builds()).toEqual([digest]);
    expect(inputs).toEqual(expect.arrayContaining(["bin/payrail.ts", "bin/merchant.command.ts", "bin/build/bundle-launcher.ts"]));

    const again = await cli("--help");
    expect(again).toMatchObject({ code: 0, stdout: first.stdout });
    expect(again.built).toBe(false);
    expect(again.urls.some((url) => url.includes(`/builds/${digest}/payrail.mjs`))).toBe(true);
    // Compiled, too, --help loads no TypeScript loader, no service and no driver.
    expect(again.urls.filter((url) => /\/node_modules\/(tsx|esbuild|fastify|mongodb|better-sqlite3|amqplib)\/|\/services\//.test(url))).toEqual([]);
  }, 400_000);

  it("builds again after an edit, and a file read back as it was runs its earlier build", async () => {
    const { digest: before } = await state();
    const source = join(dir, "bin", "payrail.ts");
    const original = await readFile(source, "utf8");
    await writeFile(source, original.replace("report every divergence", "report each divergence"));
    const edited = await cli("--help");
    expect(edited, edited.stderr).toMatchObject({ code: 0, stdout: expect.stringContaining("report each divergence") });
    expect(edited.built).toBe(true);
    const { digest: after } = await state();
    expect(after).not.toBe(before);
    expect(await builds()).toEqual([before, after].sort());

    // Its contents decide, not its time: written back, the file is newer than both builds.
    await writeFile(source, original);
    const restored = await cli("--help");
    expect(restored.stdout).toContain("report every divergence");
    expect(restored.built).toBe(true);
    expect((await state()).digest).toBe(before);
    expect(await builds()).toEqual([before, after].sort());
  }, 400_000);

  it("refuses a source that does not compile, and runs none of the builds", async () => {
    const source = join(dir, "bin", "check.command.ts");
    const original = await readFile(source, "utf8");
    await writeFile(source, `${original}\nexport const broken = ;\n`);
    try {
      const run = await cli("--help");
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("payrail: the command line did not build");
      expect(run.stdout).toBe("");
    } finally {
      await writeFile(source, original);
    }
  }, 400_000);
});
