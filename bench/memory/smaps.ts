/**
 * What a process's resident memory is made of, from Linux's /proc/<pid>/smaps: each mapping's
 * resident kB put in one bucket by what the mapping is.
 */
import { execFileSync } from "node:child_process";
import { closeSync, openSync, readFileSync, readSync, readdirSync } from "node:fs";

interface Mapping {
  start: bigint;
  end: bigint;
  perms: string;
  path: string;
  sizeKb: number;
  rssKb: number;
}

/**
 * glibc gives each thread that mallocs an arena of its own (up to 8 per core), each a 64 MiB
 * reservation aligned to 64 MiB of which only the used part is read-write; the main thread's
 * arena is the `[heap]` (brk) segment.
 */
const ARENA_BYTES = 64n * 1024n * 1024n;
/** Thread stacks are anonymous read-write mappings of the stack size right after a guard page. */
const STACK_SIZES_KB = new Set([8192, 8188, 4096, 4092, 2048, 1024]);

export function readMappings(pid: number): Mapping[] {
  const mappings: Mapping[] = [];
  let current: Mapping | undefined;
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = { start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perms: head[3]!, path: head[4] ?? "", sizeKb: 0, rssKb: 0 };
      mappings.push(current);
      continue;
    }
    const field = /^(Size|Rss):\s+(\d+) kB/.exec(line);
    if (field && current) current[field[1] === "Size" ? "sizeKb" : "rssKb"] = Number(field[2]);
  }
  return mappings;
}

/** The first address of each 64 MiB arena reservation (consecutive anonymous mappings filling it exactly). */
function arenaStarts(mappings: Mapping[]): Set<bigint> {
  const starts = new Set<bigint>();
  mappings.forEach((m, i) => {
    if (m.path !== "" || m.start % ARENA_BYTES !== 0n) return;
    let covered = 0n;
    for (let j = i; j < mappings.length && mappings[j]!.path === "" && mappings[j]!.start === m.start + covered && covered < ARENA_BYTES; j++) {
      covered += mappings[j]!.end - mappings[j]!.start;
    }
    if (covered === ARENA_BYTES) starts.add(m.start);
  });
  return starts;
}

function bucket(m: Mapping, afterGuard: boolean): string {
  const { path } = m;
  if (path === "[heap]") return "malloc, main arena ([heap])";
  if (path === "[stack]") return "main thread's stack";
  if (/\.sqlite-(wal|shm)$/.test(path)) return `SQLite ${path.slice(path.lastIndexOf("-"))} file`;
  if (path.endsWith(".sqlite")) return "SQLite database file";
  if (path === process.execPath || path.endsWith("/bin/node")) return "node binary (file)";
  if (path.includes(".node")) return "native addons (file)";
  if (path.includes(".so")) return "shared libraries (file)";
  if (path.startsWith("[")) return "kernel ([vdso], [vvar])";
  if (path !== "") return "other files";
  if (afterGuard && m.perms.startsWith("rw") && STACK_SIZES_KB.has(m.sizeKb)) return "thread stacks";
  return "other anonymous (V8 heaps, large mallocs)";
}

/** Resident kB by bucket. */
export function residentBreakdown(pid: number): Map<string, number> {
  const mappings = readMappings(pid);
  const arenas = arenaStarts(mappings);
  const kb = new Map<string, number>();
  let arenaEnd = 0n;
  let afterGuard = false;
  for (const m of mappings) {
    if (arenas.has(m.start)) arenaEnd = m.start + ARENA_BYTES;
    const name = m.start < arenaEnd ? "malloc, other threads' arenas" : bucket(m, afterGuard);
    kb.set(name, (kb.get(name) ?? 0) + m.rssKb);
    afterGuard = m.path === "" && m.perms === "---p" && m.sizeKb <= 64;
  }
  return kb;
}

/** /proc/<pid>/smaps_rollup's kB fields (Rss, Anonymous, …). */
export function rollup(pid: number): Record<string, number> {
  const fields: Record<string, number> = {};
  for (const line of readFileSync(`/proc/${pid}/smaps_rollup`, "utf8").split("\n")) {
    const field = /^(\w+):\s+(\d+) kB/.exec(line);
    if (field) fields[field[1]!] = Number(field[2]);
  }
  return fields;
}

/** The process's threads by name (`/proc/<pid>/task/<tid>/comm`), with how many of each. */
export function threadNames(pid: number): Map<string, number> {
  const names = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
    names.set(name, (names.get(name) ?? 0) + 1);
  }
  return names;
}

/**
 * kB of ICU's data (the `icudt*_dat` symbol of node's binary) resident in `pid`: the pages a
 * process touched by making Intl formatters or collators. Read from /proc/<pid>/pagemap (a
 * present bit per page) over the symbol's addresses, which `nm` gives; undefined where `nm`,
 * the symbol or the pagemap cannot be read. Node's release binaries are not position-independent,
 * so the symbol's address is where it is mapped.
 */
export function icuResidentKb(pid: number): number | undefined {
  // `null` (no symbol) is kept too: `??=` would ask nm again at every point.
  if (icuData === undefined) icuData = icuSymbol();
  if (!icuData) return undefined;
  const first = Number(icuData.start / BigInt(PAGE_BYTES));
  const last = Number((icuData.start + icuData.size - 1n) / BigInt(PAGE_BYTES));
  const entries = Buffer.alloc((last - first + 1) * 8);
  try {
    const fd = openSync(`/proc/${pid}/pagemap`, "r");
    try {
      readSync(fd, entries, 0, entries.length, first * 8);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  let present = 0;
  for (let i = 0; i < entries.length; i += 8) if (entries.readBigUInt64LE(i) >> 63n === 1n) present++;
  return (present * PAGE_BYTES) / 1024;
}

/** x86-64's and arm64 Linux's usual page size; /proc/<pid>/pagemap has one entry per page. */
const PAGE_BYTES = 4096;

let icuData: { start: bigint; size: bigint } | null | undefined;

function icuSymbol(): { start: bigint; size: bigint } | null {
  try {
    const found = /^([0-9a-f]+) ([0-9a-f]+) R icudt\d+_dat$/m.exec(execFileSync("nm", ["-S", "-D", process.execPath], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 }));
    return found ? { start: BigInt(`0x${found[1]}`), size: BigInt(`0x${found[2]}`) } : null;
  } catch {
    return null;
  }
}
