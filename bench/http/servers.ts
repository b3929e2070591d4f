/**
 * The servers under test, each a child process of the bench: spawned with `node --import tsx`,
 * ready when an HTTP URL answers 200, measured by their resident set size, stopped by SIGTERM.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { ConfigSchema } from "@payrail/runtime";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;
const TAIL_LINES = 40;

/** Every live child, so an interrupted bench leaves no server behind. */
const live = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

export interface ServerProcess {
  readonly name: string;
  readonly pid: number;
  running(): boolean;
  /** Resident set size now, in MB (Linux /proc), or null where unknown. */
  rssMb(): number | null;
  /** CPU time (user + system) it has used so far, in ms (Linux /proc), or null where unknown. */
  cpuMs(): number | null;
  /** The last lines it printed, for error messages. */
  tail(): string;
  stop(): Promise<void>;
}

/**
 * The environment of a child: the bench's own minus every Payrail variable (a shell that ran
 * `eval "$(bash scripts/infra-up.sh)"` has AMQP_URL and MONGODB_URL set, and only the
 * deployment may decide those), plus `env`.
 */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(ConfigSchema.shape)) delete base[key];
  return { ...base, ...env };
}

/** `node <argv>` for a TypeScript entry point, loaded through tsx. */
export function tsxArgv(script: string, ...args: string[]): string[] {
  return ["--import", "tsx", script, ...args];
}

/** Starts `node <argv>` from the repository root. */
export function spawnServer(name: string, argv: string[], env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    if (lines.length > TAIL_LINES) lines.splice(0, lines.length - TAIL_LINES);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => live.delete(child));
  if (child.pid === undefined) throw new Error(`${name}: could not spawn node ${argv.join(" ")}`);
  const pid = child.pid;
  return {
    name,
    pid,
    running: () => child.exitCode === null && child.signalCode === null,
    rssMb: () => rssMb(pid),
    cpuMs: () => cpuMs(pid),
    tail: () => lines.join("\n"),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Polls `url` until it answers 200; rejects, with the children's last output, when one of
 * them exits first or the timeout passes.
 */
export async function waitReady(url: string, children: ServerProcess[], timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const gone = children.find((c) => !c.running());
    if (gone) throw new Error(`${gone.name} exited before ${url} was ready:\n${gone.tail()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(3_000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms:\n${children.map((c) => `[${c.name}]\n${c.tail()}`).join("\n")}`);
}

/** A TCP port free right now on 127.0.0.1 (the child binds it a moment later). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function rssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ): 100 on every Linux Node runs on. */
const USER_HZ = 100;

/**
 * CPU time (user + system) a process has used, in ms, from /proc; with `children`, that of its
 * descendants it has waited for (the whole tree of a child process that has exited: bench:cli).
 * null where unknown.
 */
export function cpuMs(pid: number | "self", children = false): number | null {
  try {
    // utime and stime are the 14th and 15th fields, cutime and cstime the 16th and 17th; the 2nd
    // (the command) may hold spaces, so count after its ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const at = children ? 13 : 11;
    return ((Number(fields[at]) + Number(fields[at + 1])) * 1000) / USER_HZ;
  } catch {
    return null;
  }
}
