import { setFlagsFromString } from "node:v8";

/**
 * How far V8 lets the old generation grow past what the last full GC kept, in percent. V8's own
 * factor goes up to 4× on a machine with gigabytes to spare: under 100 concurrent requests the
 * objects promoted out of the young generation (requests still in flight during a scavenge) then
 * pile up as ~150 MB of garbage over a ~45 MB live heap before a full GC looks at them. At 20% a
 * full GC comes every ~10 MB of promotion instead, and costs ~15 ms on that live set. With
 * PRODUCTION_NODE_FLAGS: RSS after the bench's rows 125–140 MB instead of 250–290, for ~18% more
 * CPU per Get and ~40% per Create (docs/decisions.md, "Memory of one process": what it costs).
 */
export const HEAP_GROWING_PERCENT = 20;

/**
 * The node flags production starts `payrail start` with (the Dockerfile's CMD, `npm start`, the
 * HTTP bench): V8 reads these sizes only when the process starts, so they cannot be applied from
 * inside.
 * - A semi-space of 8 MB (V8's default here is 16 MB, two of them) keeps ~16 MB of young
 *   generation out of the resident set, at a few percent more scavenging.
 * - The first full GC at 32 MB of old generation: until its first full GC V8 starts from a limit
 *   meant for gigabytes and only shrinks it scavenge by scavenge, so the first seconds under load
 *   grew the old space to ~65 MB (~25 MB more RSS) before HEAP_GROWING_PERCENT applied.
 */
export const PRODUCTION_NODE_FLAGS = ["--max-semi-space-size=8", "--initial-old-space-size=32"] as const;

/**
 * The growth flag to set, or null when the command line chose one itself (`node
 * --heap-growing-percent=N dist/payrail.mjs start` overrides the default).
 */
export function heapGrowthFlag(execArgv: readonly string[]): string | null {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg))) return null;
  return `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/**
 * Applies HEAP_GROWING_PERCENT to this process. V8 reads this flag each time it sets the next
 * full GC's limit, so setting it at start-up takes effect (unlike the heap's sizes, which it reads
 * once, when the process starts: those are PRODUCTION_NODE_FLAGS).
 */
export function tuneHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  const flag = heapGrowthFlag(execArgv);
  if (flag) setFlagsFromString(flag);
}
