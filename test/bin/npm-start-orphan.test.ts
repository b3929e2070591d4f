import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it, vi } from "vitest";
import { eventually } from "../support/eventually.ts";
import { payrailEnv } from "../support/payrail-process.ts";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * `npm start` runs the server as npm's grandchild (npm → sh → node) and npm passes on no
 * signal: killing npm's pid left the server running, orphaned, holding the data dir and the port.
 * The drain here lasts over 3 s (DRAIN_DELAY_MS), longer than the orphan watcher's 1 s tick, as
 * a drain on a loaded machine does: the watcher signals once, and a second SIGTERM would have
 * ended the drain half-way (the pid file left behind).
 */
it("stops the server (gracefully, its pid file removed) when the npm process that started it is killed", async () => {
  const dir = await mkdtemp(join(tmpdir(), "payrail-npm-kill-"));
  dirs.push(dir);
  const dataDir = join(dir, "data");
  const npm = spawn("npm", ["start"], { env: payrailEnv({ DATA_DIR: dataDir, PORT: "0", DRAIN_DELAY_MS: "3000" }), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  npm.stdout!.on("data", (chunk: Buffer) => (out += String(chunk)));
  // Starting under npm and tsx takes a while on a loaded machine: as long as startNpmStart allows.
  await vi.waitFor(() => expect(out).toMatch(/API: +http/), { timeout: 60_000, interval: 100 });
  const server = Number((await readFile(join(dataDir, "payrail.pid"), "utf8")).trim().split(/\s+/)[0]);
  expect(server).not.toBe(npm.pid);
  expect(alive(server)).toBe(true);

  npm.kill("SIGKILL");
  await eventually(async () => expect(alive(server)).toBe(false));
  // A graceful stop: the pid file went with it.
  await expect(readFile(join(dataDir, "payrail.pid"), "utf8")).rejects.toThrow(/ENOENT/);
}, 90_000);
