/**
 * What the embedded process's memory is made of: the production build of `payrail start` (one
 * process, as `npm run bench:http` runs it), seeded through the store, measured idle after start
 * and after each row of load (100 connections, as bench:http). For each point: RSS from /proc
 * smaps (file-backed and anonymous; glibc's malloc arenas, SQLite's files, thread stacks; how
 * much of node's binary is ICU's data, from /proc/<pid>/pagemap), the
 * main isolate's heap spaces, the WAL checkpoint worker's isolate, the GCs since the last point,
 * and with `--malloc-stats` glibc's own count of each arena (gdb calls malloc_stats() in the
 * server, which prints to its stderr; the server stops for a moment).
 *
 *   npx tsx bench/memory.bench.ts                                  # 10^3 checkouts; rows get,create
 *   npx tsx bench/memory.bench.ts --rows get,list,create --malloc-stats
 *   npx tsx bench/memory.bench.ts --node-flags="--max-semi-space-size=8" --env MALLOC_ARENA_MAX=2
 *   npx tsx bench/memory.bench.ts --settle-s 60 --idle-s 60        # a minute idle after start, and after the rows
 *
 * The server's own figures come from bench/memory/memory-probe.mjs, preloaded with `--import`.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import type { HeapInfo, HeapSpaceInfo } from "node:v8";
import { startEmbedded, type Deployment } from "./http/deployments.ts";
import { createCheckout, getCheckout, getPath, runLoad, type RequestShape } from "./http/load.ts";
import { untilIdle } from "./http/measure.ts";
import { payrailLauncher } from "./http/payrail-build.ts";
import { seedCheckouts, storeEnv, type Seeded } from "./http/seed.ts";
import { ROOT } from "./http/servers.ts";
import { icuResidentKb, residentBreakdown, rollup, threadNames } from "./memory/smaps.ts";

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "get,create" },
    size: { type: "string", default: "1e3" },
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "1" },
    connections: { type: "string", default: "100" },
    "node-flags": { type: "string", default: "" },
    env: { type: "string", multiple: true, default: [] },
    "malloc-stats": { type: "boolean", default: false },
    // Seconds to stay idle after the last row before a last point: what the process gives back
    // on its own once the load has stopped.
    "idle-s": { type: "string", default: "0" },
    // Seconds to stay idle after start before the first point.
    "settle-s": { type: "string", default: "0" },
  },
});

interface ProbeFigures {
  memoryUsage: NodeJS.MemoryUsage;
  heap: HeapInfo;
  spaces: HeapSpaceInfo[];
  gcs: Record<string, { count: number; ms: number }>;
  workers: (HeapInfo | null)[];
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
const mbKb = (kb: number) => (kb / 1024).toFixed(1);
const tmp = await mkdtemp(join(tmpdir(), "payrail-memory-"));
const secretsKey = randomBytes(32).toString("base64");
const launcher = await payrailLauncher("build", values["node-flags"].split(" ").filter(Boolean));
const dataDir = join(tmp, "data");
const size = Math.round(Number(values.size));
console.error(`seeding ${size} checkouts`);
const seeded = await seedCheckouts({ dataDir }, secretsKey, size, String(size));
const env: Record<string, string> = { ...launcher.env, MEMORY_PROBE_DIR: tmp };
for (const pair of values.env) {
  const at = pair.indexOf("=");
  env[pair.slice(0, at)] = pair.slice(at + 1);
}
const probe = join(ROOT, "bench", "memory", "memory-probe.mjs");
const probed = { ...launcher, argv: ["--import", probe, ...launcher.argv], env };
const d = await startEmbedded({ launcher: probed, logLevel: "warn", storeEnv: storeEnv({ dataDir }, secretsKey) });
const server = d.processes[0]!;
let taken = 0;

async function probeServer(): Promise<ProbeFigures> {
  const file = join(tmp, `probe-${server.pid}-${taken++}.json`);
  process.kill(server.pid, "SIGUSR2");
  for (let i = 0; i < 100 && !existsSync(file); i++) await sleep(50);
  await sleep(50); // written in one call, but give it time to finish
  return JSON.parse(readFileSync(file, "utf8")) as ProbeFigures;
}

/** glibc's malloc_stats() per arena: [system bytes, in-use bytes], from the server's stderr. */
async function mallocStats(): Promise<string[]> {
  execFileSync("gdb", ["-p", String(server.pid), "-batch", "-ex", "call (void) malloc_stats()"], { stdio: "ignore", timeout: 60_000 });
  await sleep(500); // the server's stderr reaches its tail through this process's event loop
  const lines = server.tail().split("\n");
  const start = lines.findLastIndex((l) => l.startsWith("Arena 0:"));
  const out: string[] = [];
  for (let i = start; i >= 0 && i < lines.length; i++) {
    const arena = /^(Arena \d+|Total \(incl. mmap\)):/.exec(lines[i]!);
    const system = /system bytes\s+=\s+(\d+)/.exec(lines[i + 1] ?? "");
    const inUse = /in use bytes\s+=\s+(\d+)/.exec(lines[i + 2] ?? "");
    if (arena && system && inUse) out.push(`${arena[1]}: ${mb(Number(system[1]))} MB taken, ${mb(Number(inUse[1]))} MB in use`);
  }
  return out;
}

async function report(label: string): Promise<void> {
  const figures = await probeServer();
  const r = rollup(server.pid);
  console.log(`\n## ${label}: RSS ${mbKb(r["Rss"]!)} MB (anonymous ${mbKb(r["Anonymous"]!)}, file-backed ${mbKb(r["Rss"]! - r["Anonymous"]!)})`);
  console.log(`threads: ${[...threadNames(server.pid)].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(", ")}`);
  console.log("\n| resident, by mapping | MB |\n| --- | ---: |");
  for (const [name, kb] of [...residentBreakdown(server.pid)].sort((a, b) => b[1] - a[1])) if (kb >= 102) console.log(`| ${name} | ${mbKb(kb)} |`);
  const icuKb = icuResidentKb(server.pid);
  if (icuKb !== undefined) console.log(`\nof node's binary, ICU's data (Intl's locales, time zones, collation): ${mbKb(icuKb)} MB resident`);
  const m = figures.memoryUsage;
  console.log(`\nprocess.memoryUsage(): rss ${mb(m.rss)}, heapTotal ${mb(m.heapTotal)}, heapUsed ${mb(m.heapUsed)}, external ${mb(m.external)}, arrayBuffers ${mb(m.arrayBuffers)} MB`);
  console.log(`main isolate: ${mb(figures.heap.total_physical_size)} MB resident, V8's own malloc ${mb(figures.heap.malloced_memory)} MB`);
  console.log("\n| main isolate's space | size MB | used MB | resident MB |\n| --- | ---: | ---: | ---: |");
  for (const s of figures.spaces) if (s.space_size > 0) console.log(`| ${s.space_name} | ${mb(s.space_size)} | ${mb(s.space_used_size)} | ${mb(s.physical_space_size)} |`);
  for (const w of figures.workers) {
    console.log(w ? `checkpoint worker's isolate: ${mb(w.total_physical_size)} MB resident (${mb(w.used_heap_size)} used), V8's malloc ${mb(w.malloced_memory)} MB` : "checkpoint worker: no answer");
  }
  const gcs = Object.entries(figures.gcs).map(([kind, g]) => `${kind} ×${g.count} (${Math.round(g.ms)} ms)`);
  console.log(`GCs on the main thread since the last point: ${gcs.join(", ") || "none"}`);
  if (values["malloc-stats"]) console.log(`malloc_stats(): ${(await mallocStats()).join("; ")}`);
}

function shapeOf(row: string, s: Seeded): RequestShape {
  if (row === "get") return getCheckout(s.apiKey, s.sampleIds);
  if (row === "list") return getPath("/api/merchants/checkout?limit=20", { "api-key": s.apiKey });
  if (row === "create") return createCheckout(s.apiKey, `memory-${Date.now()}`);
  throw new Error(`--rows: get, list or create, not "${row}"`);
}

async function run(deployment: Deployment): Promise<void> {
  await untilIdle(deployment);
  console.log(`# Memory of the embedded process (${launcher.description}; ${size} checkouts; env ${values.env.join(" ") || "as is"})`);
  const settleS = Number(values["settle-s"]);
  if (settleS > 0) await sleep(settleS * 1000);
  await report(settleS > 0 ? `${settleS} s idle after start` : "idle after start");
  const load = { connections: Number(values.connections), durationS: Number(values.duration), warmupS: Number(values.warmup) };
  for (const row of values.rows.split(",")) {
    let cpuFrom = 0;
    const result = await runLoad(deployment.url, shapeOf(row, seeded), load, () => (cpuFrom = server.cpuMs() ?? 0));
    const cpuUs = (((server.cpuMs() ?? 0) - cpuFrom) * 1000) / result.requests;
    await fetch(`${deployment.url}/readyz`); // what was still queued is drained
    console.log(`\n${row}: ${Math.round(result.rps)} req/s, ${Math.round(cpuUs)} CPU µs/req, errors ${result.errors}`);
    await report(`after ${row}`);
  }
  const idleS = Number(values["idle-s"]);
  if (idleS > 0) {
    await sleep(idleS * 1000);
    await report(`${idleS} s idle after the last row`);
  }
}

try {
  await run(d);
} finally {
  await d.stop();
  await rm(tmp, { recursive: true, force: true });
}
