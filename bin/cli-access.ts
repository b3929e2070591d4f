import { chmod, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { randomToken, type Stoppable } from "@payrail/runtime";

const NAME = "cli-access.json";

/** How the CLI reaches the `payrail start` that holds an embedded store: its gateway and an admin token of its own. */
export interface CliAccess {
  pid: number;
  url: string;
  adminToken: string;
}

/** A fresh admin token for this start's CLI (never ADMIN_TOKEN: that one stays only where the operator put it). */
export const newCliAdminToken = (): string => randomToken(32);

/**
 * Written by `payrail start` beside the embedded store once its gateway listens, owner-only
 * like the store and its secrets key, and removed when it stops: who may read the store may
 * administer it.
 */
export async function writeCliAccess(dataDir: string, access: CliAccess): Promise<Stoppable> {
  const path = join(dataDir, NAME);
  await writeFile(path, JSON.stringify(access), { mode: 0o600 });
  await chmod(path, 0o600);
  return { name: "cli-access", stop: () => rm(path, { force: true }) };
}

/** The access the running process `pid` wrote, or null (none, another process's, or unreadable). */
export async function readCliAccess(dataDir: string, pid: number): Promise<CliAccess | null> {
  try {
    const value = JSON.parse(await readFile(join(dataDir, NAME), "utf8")) as Partial<CliAccess>;
    if (value.pid !== pid || typeof value.url !== "string" || typeof value.adminToken !== "string") return null;
    return { pid, url: value.url, adminToken: value.adminToken };
  } catch {
    return null;
  }
}
