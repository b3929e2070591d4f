// Preloaded into the server under test by bench/memory.bench.ts (`node --import <this> …`): on
// SIGUSR2 it writes the process's heap figures, the checkpoint worker's and the GCs since the last
// signal to `<MEMORY_PROBE_DIR>/probe-<pid>-<n>.json`. Plain JavaScript because the server runs the
// compiled build on plain node, without a TypeScript loader; loading one would change what is
// measured (tsx alone is ~20 MB of RSS).
import { writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { PerformanceObserver, constants } from "node:perf_hooks";
import v8 from "node:v8";
import workerThreads from "node:worker_threads";

const dir = process.env.MEMORY_PROBE_DIR ?? ".";

// Each eval'd worker (the WAL checkpointer) answers "memory-probe" with its own isolate's figures.
// Its own handler ignores commands it does not know, and the main thread messages it does not know.
const WORKER_PROBE = `
;(() => { const { parentPort } = require("node:worker_threads"); const v8 = require("node:v8");
parentPort.on("message", (m) => { if (m === "memory-probe") parentPort.postMessage({ kind: "memory-probe", heap: v8.getHeapStatistics() }); }); })();`;
const workers = [];
const BaseWorker = workerThreads.Worker;
workerThreads.Worker = class extends BaseWorker {
  constructor(source, options) {
    super(options?.eval && typeof source === "string" ? source + WORKER_PROBE : source, options);
    workers.push(this);
  }
};
syncBuiltinESMExports(); // so that `import { Worker } from "node:worker_threads"` sees the subclass

const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: "scavenge",
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "mark-compact",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak callbacks",
};
let gcs = {};
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = GC_KINDS[entry.detail.kind] ?? String(entry.detail.kind);
    const seen = (gcs[kind] ??= { count: 0, ms: 0 });
    seen.count += 1;
    seen.ms += entry.duration;
  }
}).observe({ entryTypes: ["gc"] });

function askWorker(worker) {
  return new Promise((resolve) => {
    const onMessage = (m) => {
      if (m?.kind !== "memory-probe") return;
      clearTimeout(timer);
      worker.off("message", onMessage);
      resolve(m.heap);
    };
    const timer = setTimeout(() => {
      worker.off("message", onMessage);
      resolve(null);
    }, 1000);
    worker.on("message", onMessage);
    worker.postMessage("memory-probe");
  });
}

let taken = 0;
process.on("SIGUSR2", async () => {
  const n = taken++;
  const figures = {
    memoryUsage: process.memoryUsage(),
    heap: v8.getHeapStatistics(),
    spaces: v8.getHeapSpaceStatistics(),
    gcs,
    workers: await Promise.all(workers.map(askWorker)),
  };
  gcs = {};
  writeFileSync(`${dir}/probe-${process.pid}-${n}.json`, JSON.stringify(figures));
});
