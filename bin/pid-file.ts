import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Stoppable } from "@payrail/runtime";

const NAME = "payrail.pid";

/**
 * The embedded store's files belong to one process at a time. `start` records its pid so
 * that the CLI (and a second `start`) can refuse to open the same files concurrently.
 */
export async function writePidFile(dataDir: string): Promise<Stoppable> {
  const running = await runningPid(dataDir);
  if (running !== null && running !== process.pid) {
    throw new Error(`another Payrail process (pid ${running}) uses ${dataDir}; stop it first or set DATA_DIR`);
  }
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, NAME);
  await writeFile(path, String(process.pid));
  return { name: "pid-file", stop: () => rm(path, { force: true }) };
}

/** The pid of a live process holding `dataDir`, or null. */
export async function runningPid(dataDir: string): Promise<number | null> {
  try {
    const pid = Number((await readFile(join(dataDir, NAME), "utf8")).trim());
    if (!Number.isInteger(pid) || pid <= 0) return null;
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}
