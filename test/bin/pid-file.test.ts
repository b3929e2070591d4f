import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runningPid, writePidFile } from "../../bin/pid-file.ts";
import { readProcStat } from "../../bin/proc-stat.ts";
import { until } from "../support/until.ts";

/** Whether `kill(pid, 0)` finds the pid: what the pid check went by alone. */
function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts `command`, resolving with the process and its first line of output. */
async function started(command: string, args: string[]): Promise<{ child: ChildProcess; firstLine: () => string }> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += String(chunk)));
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  return { child, firstLine: () => out.split("\n")[0] ?? "" };
}

describe.skipIf(!existsSync("/proc/self/stat"))("the pid file of an embedded data directory (Linux /proc)", () => {
  let root: string;
  let n = 0;
  const children: ChildProcess[] = [];
  const dataDir = () => join(root, `data-${++n}`);
  const pidFileOf = async (dir: string, text: string) => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "payrail.pid"), text);
  };
  const startTimeOf = async (pid: number) => (await readProcStat(pid))!.startTime;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "payrail-pid-"));
  });
  afterEach(() => {
    for (const c of children.splice(0)) c.kill("SIGKILL");
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("records the pid with its start time, and tells a live holder: another start is refused", async () => {
    const dir = dataDir();
    const held = await writePidFile(dir);
    expect(await readFile(join(dir, "payrail.pid"), "utf8")).toBe(`${process.pid} ${await startTimeOf(process.pid)}\n`);
    expect(await runningPid(dir)).toBe(process.pid);
    await held.stop();

    // Another live node process holding the directory, as a running `payrail start` does.
    const other = await started(process.execPath, ["-e", "setInterval(() => {}, 1000)"]);
    children.push(other.child);
    const otherPid = other.child.pid!;
    await pidFileOf(dir, `${otherPid} ${await startTimeOf(otherPid)}\n`);
    expect(await runningPid(dir)).toBe(otherPid);
    await expect(writePidFile(dir)).rejects.toThrow(`another Payrail process (pid ${otherPid}) uses ${dir}`);
    // A pid file of an older Payrail (the pid alone) naming a live node process still holds.
    await pidFileOf(dir, `${otherPid}`);
    expect(await runningPid(dir)).toBe(otherPid);
  });

  it("does not take a zombie (a holder that died and was never reaped) for a live holder", async () => {
    // The shell forks a child that exits a moment later, when the shell has become `sleep`, which never waits for it.
    const parent = await started("sh", ["-c", "sh -c 'sleep 0.2' & echo $!; exec sleep 30"]);
    children.push(parent.child);
    await until("the zombie's pid", () => /^\d+$/.test(parent.firstLine()));
    const zombie = Number(parent.firstLine());
    await until("the child to be a zombie", async () => (await readProcStat(zombie))?.state === "Z");
    expect(signalable(zombie)).toBe(true);

    const dir = dataDir();
    await pidFileOf(dir, `${zombie} ${await startTimeOf(zombie)}\n`);
    expect(await runningPid(dir)).toBeNull();
    await pidFileOf(dir, `${zombie}`);
    expect(await runningPid(dir)).toBeNull();
    const held = await writePidFile(dir);
    expect(await runningPid(dir)).toBe(process.pid);
    await held.stop();
  });

  it("does not take a pid the kernel gave to an unrelated process for the holder", async () => {
    const sleeper = await started("sleep", ["30"]);
    children.push(sleeper.child);
    const pid = sleeper.child.pid!;
    expect(signalable(pid)).toBe(true);

    const dir = dataDir();
    // The holder's start time differs from the process that now has its pid.
    await pidFileOf(dir, `${pid} ${Number(await startTimeOf(pid)) - 1}\n`);
    expect(await runningPid(dir)).toBeNull();
    // The pid alone (an older pid file): the process is not node.
    await pidFileOf(dir, `${pid}`);
    expect(await runningPid(dir)).toBeNull();
    // And the same for this live node process's pid under another start time.
    await pidFileOf(dir, `${process.pid} ${Number(await startTimeOf(process.pid)) + 1}\n`);
    expect(await runningPid(dir)).toBeNull();
    const held = await writePidFile(dir);
    await held.stop();
  });
});
