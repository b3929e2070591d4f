/**
 * The consumer notices' share of a full payment flow's CPU, measured in rounds that alternate the
 * two variants (every service, and every service but notices) on one store:
 *
 *   npm run bench:notices-share                           # 4 rounds of 8 s rows
 *   npm run bench:notices-share -- --rounds 6 --duration 10
 *
 * `npm run bench:http` measures the same pair once, with 2 s rows in --quick; one pair scatters by
 * ±15 points, as much as the target (notices add at most 15% to a flow's CPU). Here each round
 * runs both variants, in turns (on then off, then off then on: neither gains from the store the
 * other grew or from coming second), each counted until the processes are idle again (the
 * notices a row's flows caused are sent after it), and the report gives every round and the
 * median of the rounds' shares.
 */
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { startEmbeddedVariant, type Deployment } from "./http/deployments.ts";
import { noticesShare, settledCpu } from "./http/flow-variants.ts";
import type { FlowResult } from "./http/full-flow.ts";
import { measureFlow, type MeasureSettings } from "./http/measure.ts";
import { payrailLauncher } from "./http/payrail-build.ts";
import { seedCheckouts, storeEnv } from "./http/seed.ts";
import { ROOT } from "./http/servers.ts";

const TARGET = 0.15;

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "4" },
    duration: { type: "string", default: "8" },
    warmup: { type: "string", default: "1" },
    "flow-clients": { type: "string", default: "10" },
    out: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  console.log("usage: npm run bench:notices-share -- [--rounds 4] [--duration 8] [--warmup 1] [--flow-clients 10] [--out <file>]");
  process.exit(0);
}
const rounds = Number(values.rounds);
const durationS = Number(values.duration);
const warmupS = Number(values.warmup);
const flowClients = Number(values["flow-clients"]);
for (const [name, v] of Object.entries({ rounds, duration: durationS, "flow-clients": flowClients }))
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name}: expected a positive number`);
const log = (message: string) => console.error(message);

async function measured(s: MeasureSettings, apiKey: string, start: () => Promise<Deployment>, name: string): Promise<FlowResult> {
  const d = await start();
  try {
    return await measureFlow(s, d, apiKey, name, undefined, true);
  } finally {
    await d.stop();
  }
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Round {
  on: FlowResult;
  off: FlowResult;
  share: number | null;
  load: number;
}

async function main(): Promise<void> {
  const tmp = await mkdtemp(join(tmpdir(), "payrail-bench-notices-share-"));
  const secretsKey = randomBytes(32).toString("base64");
  try {
    log("building Payrail (bin/build.ts), seeding 10^3 checkouts");
    const launcher = await payrailLauncher("build");
    const dataDir = join(tmp, "data");
    const seeded = await seedCheckouts({ dataDir }, secretsKey, 1_000, "1e3");
    const settings = { launcher, logLevel: "warn", storeEnv: storeEnv({ dataDir }, secretsKey) };
    const s: MeasureSettings = { load: { connections: flowClients, durationS, warmupS }, flowClients, tag: `share-${Date.now()}`, log };
    const flow = (leaveOut: "notices" | null) =>
      measured(s, seeded.apiKey, () => startEmbeddedVariant(settings, leaveOut), leaveOut ? "full flow, notices off" : "full flow, notices on");
    const results: Round[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const load = loadavg()[0]!;
      log(`round ${round + 1} of ${rounds} (load average ${load.toFixed(1)})`);
      const onFirst = round % 2 === 0;
      const first = await flow(onFirst ? null : "notices");
      const second = await flow(onFirst ? "notices" : null);
      const [on, off] = onFirst ? [first, second] : [second, first];
      const share = noticesShare({ noticesOn: on, noticesOff: off, screening: null });
      results.push({ on, off, share, load });
      log(`  share this round: ${share === null ? "?" : `${(share * 100).toFixed(1)}%`}`);
    }
    await report(results);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The mean CPU a flow with notices over the mean without, − 1: steadier than one round's ratio. */
function pooled(results: Round[]): number | null {
  const mean = (fs: FlowResult[]) => fs.reduce((sum, f) => sum + (settledCpu(f) ?? NaN), 0) / fs.length;
  const ratio = mean(results.map((r) => r.on)) / mean(results.map((r) => r.off)) - 1;
  return Number.isFinite(ratio) ? ratio : null;
}

async function report(results: Round[]): Promise<void> {
  const pct = (x: number | null) => (x === null ? "?" : `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%`);
  const msOf = (f: FlowResult) => settledCpu(f)?.toFixed(2) ?? "?";
  const shares = results.map((r) => r.share).filter((x): x is number => x !== null);
  const mid = shares.length ? median(shares) : null;
  const lines = [
    `# bench:notices-share ${new Date().toISOString()}`,
    "",
    `Payrail embedded (variant server: every service, or every service but notices), 10^3 seeded checkouts; ${rounds} rounds of ` +
      `${durationS} s full-flow rows after ${warmupS} s of warm-up, ${flowClients} clients; CPU per flow counted until idle. Node ${process.version}, ${cpus().length} CPUs.`,
    "",
    "| round | load avg | notices off: flows/s, ms CPU a flow | notices on: flows/s, ms CPU a flow | notices' share |",
    "| ---: | ---: | --- | --- | ---: |",
    ...results.map((r, i) => `| ${i + 1} | ${r.load.toFixed(1)} | ${r.off.flowsPerS.toFixed(1)}, ${msOf(r.off)} | ${r.on.flowsPerS.toFixed(1)}, ${msOf(r.on)} | ${pct(r.share)} |`),
    "",
    `Median share: **${pct(mid)}** (target: at most +${TARGET * 100}%: ${mid === null ? "not measured" : mid <= TARGET ? "met" : "MISSED"}); ` +
      `pooled (mean CPU a flow, on over off): ${pct(pooled(results))}.`,
    "",
  ];
  const text = lines.join("\n");
  const out = values.out ?? join(ROOT, "bench/results", `notices-share-${new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "")}.md`);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, text);
  console.log(`\n${text}`);
}

await main();
