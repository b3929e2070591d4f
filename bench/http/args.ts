import { parseArgs } from "node:util";

export const MODES = ["embedded", "rabbitmq", "mongo"] as const;
export type ModeOption = (typeof MODES)[number];

/** What one `npm run bench:http` run measures; see `--help`. */
export interface BenchOptions {
  /** Which Payrail rows run (the baseline and the ceiling always do). */
  modes: Set<ModeOption>;
  /** Stored checkouts per size, smallest first. */
  sizes: number[];
  /** Seconds per measured row. */
  durationS: number;
  /** Seconds of discarded load before each row (JIT, caches, connection pools). */
  warmupS: number;
  connections: number;
  /** Concurrent clients of the full payment flow. */
  flowClients: number;
  /** How Payrail runs: its production build on plain node, or its sources through tsx. */
  runtime: "build" | "tsx";
  /** Node flags of Payrail's processes (not of the baseline, ceiling and anchor). */
  nodeFlags: string[];
  /** LOG_LEVEL of the servers under test. */
  logLevel: string;
  /** SHARED_LIMITS of Payrail's processes (auto: shared in RabbitMQ mode), to weigh the shared request limits' cost. */
  sharedLimits: "auto" | "on" | "off";
  /** Leave the temporary data folders behind (their paths are printed). */
  keepData: boolean;
  /** Where the markdown report goes. */
  out: string | undefined;
}

export const USAGE = `usage: npm run bench:http -- [options]
  --quick                  smoke run: --sizes 1e3 --duration 2 --warmup 0.5
  --sizes 1e3,1e5,1e6      stored checkouts per size (default: all three)
  --modes embedded,rabbitmq,mongo
                           which Payrail rows run (default: all; mongo needs MONGODB_URL)
  --duration <s>           seconds per row (default 5)
  --warmup <s>             discarded seconds before each row (default 1)
  --connections <n>        autocannon connections (default 100)
  --flow-clients <n>       concurrent full payment flows (default 10)
  --runtime build|tsx      Payrail as production runs it (bin/build.ts bundle, NODE_ENV=production;
                           the default) or its TypeScript sources through tsx
  --log-level <level>      LOG_LEVEL of the servers (default warn)
  --node-flags="<flags>"   node flags for Payrail's processes, e.g. the memory-bound start of the
                           operator guide's "Memory" note (docs/guide/operator.md): "--max-semi-space-size=8
                           --initial-old-space-size=32 --heap-growing-percent=20" (default none)
  --shared-limits auto|on|off
                           SHARED_LIMITS of Payrail's processes (default auto: the gateways'
                           request limits are counted in the store in RabbitMQ mode); off beside
                           on weighs what sharing them costs
  --keep-data              keep the temporary data folders
  --out <file>             report file (default bench/results/http-<timestamp>.md)
env: AMQP_URL / BENCH_AMQP_URL (broker, default amqp://guest:guest@127.0.0.1:5672),
     MONGODB_URL (adds the RabbitMQ + MongoDB-wire rows)`;

export function parseBenchArgs(argv: string[]): BenchOptions | "help" {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      sizes: { type: "string" },
      modes: { type: "string" },
      duration: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      "flow-clients": { type: "string" },
      "log-level": { type: "string" },
      runtime: { type: "string" },
      "node-flags": { type: "string" },
      "shared-limits": { type: "string" },
      "keep-data": { type: "boolean", default: false },
      out: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return "help";
  const quick = values.quick;
  const sizes = (values.sizes ?? (quick ? "1e3" : "1e3,1e5,1e6")).split(",").map((s) => Math.round(positive(s, "--sizes")));
  const modes = (values.modes ?? MODES.join(",")).split(",").map((m) => m.trim());
  for (const m of modes) if (!(MODES as readonly string[]).includes(m)) throw new Error(`--modes: unknown mode "${m}" (expected ${MODES.join(", ")})`);
  return {
    modes: new Set(modes as ModeOption[]),
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    durationS: positive(values.duration ?? (quick ? "2" : "5"), "--duration"),
    warmupS: nonNegative(values.warmup ?? (quick ? "0.5" : "1"), "--warmup"),
    connections: positive(values.connections ?? "100", "--connections"),
    flowClients: positive(values["flow-clients"] ?? "10", "--flow-clients"),
    runtime: runtimeOf(values.runtime ?? "build"),
    nodeFlags: (values["node-flags"] ?? "").split(/\s+/).filter(Boolean),
    logLevel: values["log-level"] ?? "warn",
    sharedLimits: sharedLimitsOf(values["shared-limits"] ?? "auto"),
    keepData: values["keep-data"],
    out: values.out,
  };
}

function runtimeOf(text: string): "build" | "tsx" {
  if (text !== "build" && text !== "tsx") throw new Error(`--runtime: expected build or tsx, got "${text}"`);
  return text;
}

function sharedLimitsOf(text: string): "auto" | "on" | "off" {
  if (text !== "auto" && text !== "on" && text !== "off") throw new Error(`--shared-limits: expected auto, on or off, got "${text}"`);
  return text;
}

function positive(text: string, flag: string): number {
  const n = Number(text.trim());
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag}: expected a positive number, got "${text}"`);
  return n;
}

function nonNegative(text: string, flag: string): number {
  const n = Number(text.trim());
  if (!Number.isFinite(n) || n < 0) throw new Error(`${flag}: expected a number ≥ 0, got "${text}"`);
  return n;
}
