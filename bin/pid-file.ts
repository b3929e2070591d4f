import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { Stoppable } from "@payrail/runtime";
import { readProcStat, readProgram } from "./proc-stat.ts";

const NAME = "payrail.pid";

/**
 * The embedded store's files belong to one process at a time. `start` records its pid, and
 * where /proc tells it its start time, so that the CLI (and a second `start`) can refuse to open
 * the same files concurrently, and no one is refused by a dead holder whose pid lives on.
 */
export async function writePidFile(dataDir: string): Promise<Stoppable> {
  const running = await runningPid(dataDir);
  if (running !== null && running !== process.pid) {
    throw new Error(`another Payrail process (pid ${running}) uses ${dataDir}; stop it first or set DATA_DIR`);
  }
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, NAME);
  const startTime = (await readProcStat(process.pid))?.startTime;
  await writeFile(path, startTime === undefined ? `${process.pid}\n` : `${process.pid} ${startTime}\n`);
  return { name: "pid-file", stop: () => rm(path, { force: true }) };
}

/** The pid of a live Payrail process holding `dataDir`, or null. */
export async function runningPid(dataDir: string): Promise<number | null> {
  const recorded = await readFile(join(dataDir, NAME), "utf8").catch(() => null);
  const [pidText, startTime] = (recorded ?? "").trim().split(/\s+/);
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch {
    return null;
  }
  return (await isHolder(pid, startTime)) ? pid : null;
}

/**
 * Whether the live pid is still the process that wrote the file. A holder that died unreaped
 * (a container whose init does not reap, a parent that never waits) is a zombie: `kill(pid, 0)`
 * still succeeds. A pid the kernel gave to another process has another start time; a pid file
 * without one (written before it was recorded) must at least name a node process.
 */
async function isHolder(pid: number, startTime: string | undefined): Promise<boolean> {
  const stat = await readProcStat(pid);
  if (stat === undefined) return true; // no /proc: kill(pid, 0) is all there is to know
  if (stat === null || stat.state === "Z" || stat.state === "X") return false;
  if (startTime !== undefined) return stat.startTime === startTime;
  const program = await readProgram(pid);
  return program !== null && (basename(program).startsWith("node") || basename(program) === basename(process.execPath));
}
