import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it, vi } from "vitest";
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

/** `npm start` in a data dir of its own; `out` collects what it prints. */
async function npmStart() {
  const dir = await mkdtemp(join(tmpdir(), "payrail-npm-kill-"));
  dirs.push(dir);
  const dataDir = join(dir, "data");
  const npm = spawn("npm", ["start"], { env: payrailEnv({ DATA_DIR: dataDir, PORT: "0", DRAIN_DELAY_MS: "3000" }), stdio: ["ignore", "pipe", "pipe"] });
  const started = { npm, dataDir, out: "" };
  npm.stdout!.on("data", (chunk: Buffer) => (started.out += String(chunk)));
  npm.stderr!.on("data", (chunk: Buffer) => (started.out += String(chunk)));
  return started;
}

/** The server's pid, once its pid file names one (early in its start). */
async function serverPid(dataDir: string): Promise<number> {
  return vi.waitFor(
    async () => {
      const pid = Number((await readFile(join(dataDir, "payrail.pid"), "utf8")).trim().split(/\s+/)[0]);
      expect(pid).toBeGreaterThan(0);
      return pid;
    },
    { timeout: 60_000, interval: 20 },
  );
}

/** Kills npm (if not yet) and waits for the server to end; a graceful stop removes its pid file. */
async function killNpmAndExpectGracefulStop(started: Awaited<ReturnType<typeof npmStart>>, server: number): Promise<void> {
  expect(server).not.toBe(started.npm.pid);
  expect(alive(server)).toBe(true);
  started.npm.kill("SIGKILL");
  // The drain waits DRAIN_DELAY_MS, after a start that may still be under way.
  await vi.waitFor(() => expect(alive(server)).toBe(false), { timeout: 60_000, interval: 25 });
  const left = await readFile(join(started.dataDir, "payrail.pid"), "utf8").catch(() => null);
  expect(left, `the pid file was left behind: not a graceful stop. The server printed:\n${started.out}`).toBeNull();
}

/**
 * `npm start` runs the server as npm's grandchild (npm → sh → node) and npm passes on no
 * signal: killing npm's pid left the server running, orphaned, holding the data dir and the port.
 * The drain here lasts over 3 s (DRAIN_DELAY_MS), longer than the orphan watcher's 1 s tick, as
 * a drain on a loaded machine does: the watcher signals once, and a second SIGTERM would have
 * ended the drain half-way (the pid file left behind).
 */
it("stops the server (gracefully, its pid file removed) when the npm process that started it is killed", async () => {
  const started = await npmStart();
  // Starting under npm and tsx takes a while on a loaded machine: as long as startNpmStart allows.
  await vi.waitFor(() => expect(started.out).toMatch(/API: +http/), { timeout: 60_000, interval: 100 });
  await killNpmAndExpectGracefulStop(started, await serverPid(started.dataDir));
}, 90_000);

/**
 * npm killed while the server is still starting (its pid file written, its services not yet):
 * a SIGTERM then, before the launcher handles the signal, would end it by the signal's default
 * action, its pid file left behind. The watcher waits until the launcher handles SIGTERM. The
 * server is held still (SIGSTOP) while npm dies and for longer than the watcher's tick, so that
 * the tick is due the moment it goes on, with its start unfinished.
 */
it("stops the server gracefully when npm is killed while the server is still starting", async () => {
  const started = await npmStart();
  const server = await serverPid(started.dataDir);
  process.kill(server, "SIGSTOP");
  try {
    expect(started.out).not.toMatch(/API: +http/);
    started.npm.kill("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  } finally {
    process.kill(server, "SIGCONT");
  }
  await killNpmAndExpectGracefulStop(started, server);
  expect(started.out).toMatch(/API: +http/);
}, 90_000);
