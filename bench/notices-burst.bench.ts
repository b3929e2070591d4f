/**
 * A burst of renewals due at once, and how long their upcoming-charge notices take to be sent:
 *
 *   npm run bench:notices                        # 10,000 subscriptions, embedded
 *   npm run bench:notices -- --quick             # 1,000
 *   npm run bench:notices -- --count 10000 --poll-ms 30000 --flow-clients 20
 *
 * 1. Seeding, through the real flow over HTTP: Payrail embedded (compiled, NODE_ENV=production, as
 *    bench:http runs it) with its renewal scheduler off (RENEWAL_POLL_MS=0); `count` daily
 *    subscriptions, each created, verified, linked and charged as the walk-through does, its first
 *    charge settled by the sandbox's simulate. A daily subscription's next renewal is a day away,
 *    inside NOTICE_DAYS_BEFORE (3), so every one of them has its upcoming-charge notice due, and
 *    nothing announces it yet. The bench waits until the seeding's own notices (receipts) are sent.
 * 2. The burst: the same store, Payrail restarted with its scheduler on (RENEWAL_POLL_MS, default
 *    the production default), everything else as in 1. From the spawn the bench reads the
 *    process's /metrics (METRICS_PORT) every 250 ms until `count` `subscription.upcoming` events
 *    are published (the scheduler's passes and the outbox alone: the baseline) and `count`
 *    notices are sent (payrail_notice_attempts_total{outcome="sent"}: the notices subscriber
 *    wrote each and its worker sent it to the sandbox outbox, SMS and email).
 *
 * It prints the seconds of both, notices per second, and the 120 s target of a 10,000 burst
 * (docs/performance.md, "Upcoming-charge notices of a renewal burst"). Figures depend on the
 * machine and whatever else runs on it.
 */
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { Agent } from "node:http";
import { cpus, tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { checkoutBody } from "./http/checkout-body.ts";
import { startEmbedded, type Deployment, type PayrailSettings } from "./http/deployments.ts";
import { getProcessorToken, jsonClient, linkedCheckout } from "./http/full-flow.ts";
import { untilIdle } from "./http/measure.ts";
import { payrailLauncher } from "./http/payrail-build.ts";
import { seedCheckouts, storeEnv } from "./http/seed.ts";
import { freePort, ROOT } from "./http/servers.ts";

const TARGET_S = 120;
/** The default RENEWAL_POLL_MS: the scheduler's first pass comes one tick after the start, and announces the whole burst (renewal.scheduler.ts). */
const DEFAULT_RENEWAL_POLL_MS = 30_000;
const TARGET_COUNT = 10_000;
const METRICS_POLL_MS = 250;
/** A burst that has not been sent by then is reported as such. */
const GIVE_UP_MS = 30 * 60_000;

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    count: { type: "string" },
    "flow-clients": { type: "string", default: "20" },
    "poll-ms": { type: "string" },
    runtime: { type: "string", default: "build" },
    "keep-data": { type: "boolean", default: false },
    out: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  console.log(`usage: npm run bench:notices -- [--quick] [--count 10000] [--flow-clients 20] [--poll-ms <RENEWAL_POLL_MS>] [--runtime build|tsx] [--keep-data] [--out <file>]`);
  process.exit(0);
}
const count = Number(values.count ?? (values.quick ? 1_000 : TARGET_COUNT));
const flowClients = Number(values["flow-clients"]);
const pollMs = values["poll-ms"];
if (!Number.isInteger(count) || count < 1) throw new Error(`--count: expected a positive integer, got ${values.count}`);
if (!Number.isInteger(flowClients) || flowClients < 1) throw new Error(`--flow-clients: expected a positive integer`);
if (pollMs !== undefined && !/^\d+$/.test(pollMs)) throw new Error(`--poll-ms: expected milliseconds, got ${pollMs}`);
if (values.runtime !== "build" && values.runtime !== "tsx") throw new Error(`--runtime: expected build or tsx`);
const log = (message: string) => console.error(message);

/** A daily subscription: its next renewal, a day after its first charge, is within NOTICE_DAYS_BEFORE. */
const subscriptionBody = (merchantCheckoutId: string) => ({ ...checkoutBody(merchantCheckoutId), is_subscription: true, plan_type: "daily" });

async function withDeployment<T>(start: () => Promise<Deployment>, what: string, fn: (d: Deployment, t0: number) => Promise<T>): Promise<T> {
  log(`  ${what}: starting`);
  const t0 = performance.now();
  const d = await start();
  log(`  ${what}: ready in ${d.startupS.toFixed(2)} s at ${d.url}`);
  try {
    return await fn(d, t0);
  } finally {
    await d.stop();
  }
}

/** `count` subscriptions through the walk-through's flow, their first charges settled. */
async function seedSubscriptions(d: Deployment, apiKey: string): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: flowClients });
  const call = jsonClient(d.url, agent);
  const merchant = { "api-key": apiKey };
  const t0 = performance.now();
  let next = 0;
  let done = 0;
  let lastReport = t0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const id = await linkedCheckout(call, apiKey, subscriptionBody);
      const charged = await getProcessorToken(call, apiKey, id);
      await call("POST", `/api/sandbox/transfers/${charged.transaction_uuid}/simulate`, merchant, { status: "completed" });
      done += 1;
      if (performance.now() - lastReport > 5_000) {
        lastReport = performance.now();
        const rate = done / ((lastReport - t0) / 1000);
        log(`    seeding: ${done}/${count} subscriptions (${rate.toFixed(0)}/s, ~${Math.round((count - done) / rate)} s left)`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(flowClients, count) }, worker));
  } finally {
    agent.destroy();
  }
  return (performance.now() - t0) / 1000;
}

/** Reads one counter's sample (labels in any order) from a Prometheus text page; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const close = line.indexOf("}");
    const have = line.slice(name.length + 1, close);
    if (Object.entries(labels).every(([k, v]) => have.includes(`${k}="${v}"`))) return Number(line.slice(close + 1).trim());
  }
  return 0;
}

interface Burst {
  /** When the first subscription.upcoming was published: the scheduler's first pass. */
  firstS: number | null;
  announcedS: number | null;
  sentS: number | null;
  startupS: number;
  sent: number;
  cpuS: number | null;
}

/** From the spawn: when `count` subscription.upcoming were published, and when `count` notices were sent. */
async function watchBurst(d: Deployment, t0: number, metricsUrl: string): Promise<Burst> {
  let firstS: number | null = null;
  let announcedS: number | null = null;
  let sentS: number | null = null;
  let sent = 0;
  let lastReport = performance.now();
  const cpuAt = () => d.processes[0]?.cpuMs() ?? null;
  const cpu0 = cpuAt();
  while (performance.now() - t0 < GIVE_UP_MS) {
    const text = await fetch(metricsUrl).then((r) => r.text());
    const now = (performance.now() - t0) / 1000;
    const announced = sample(text, "payrail_events_total", { type: "subscription.upcoming", result: "published" });
    sent = sample(text, "payrail_notice_attempts_total", { outcome: "sent" });
    if (firstS === null && announced > 0) firstS = now;
    if (announcedS === null && announced >= count) announcedS = now;
    if (sent >= count) {
      sentS = now;
      break;
    }
    if (performance.now() - lastReport > 5_000) {
      lastReport = performance.now();
      log(`    ${now.toFixed(0)} s: ${announced} announced, ${sent} notices sent`);
    }
    await sleep(METRICS_POLL_MS);
  }
  const cpu1 = cpuAt();
  return { firstS, announcedS, sentS, startupS: d.startupS, sent, cpuS: cpu0 !== null && cpu1 !== null ? (cpu1 - cpu0) / 1000 : null };
}

async function main(): Promise<void> {
  const secretsKey = randomBytes(32).toString("base64");
  const tmp = await mkdtemp(join(tmpdir(), "payrail-bench-notices-"));
  const target = { dataDir: join(tmp, "embedded") };
  log(values.runtime === "build" ? "building Payrail (bin/build.ts)" : "Payrail runs from its sources through tsx");
  const launcher = await payrailLauncher(values.runtime as "build" | "tsx");
  try {
    const seeded = await seedCheckouts(target, secretsKey, 1, "merchant");
    const settings = (env: Record<string, string>): PayrailSettings => ({
      launcher,
      logLevel: "warn",
      // Given after the bench's own settings, so these win.
      storeEnv: { ...storeEnv(target, secretsKey), SANDBOX_EVENTS_PER_MINUTE: "1000000000", ...env },
    });
    log(`seeding ${count} daily subscriptions through the flow (${flowClients} clients), renewal scheduler off`);
    const seedS = await withDeployment(() => startEmbedded(settings({ RENEWAL_POLL_MS: "0" })), "seeding server", async (d) => {
      const s = await seedSubscriptions(d, seeded.apiKey);
      // untilIdle gives up after a minute: wait on, or the burst's process would send the seeding's last receipts and count them.
      let idle = 0;
      for (let waited = Infinity; waited >= 59; idle += waited) waited = await untilIdle(d);
      log(`    seeded in ${s.toFixed(1)} s, then idle after ${idle.toFixed(1)} s (the seeding's own events and notices)`);
      return s;
    });
    const metricsPort = await freePort();
    const burstEnv: Record<string, string> = { METRICS_PORT: String(metricsPort), ...(pollMs !== undefined ? { RENEWAL_POLL_MS: pollMs } : {}) };
    log(`the burst: ${count} upcoming-charge notices due at once, RENEWAL_POLL_MS=${pollMs ?? "its default"}`);
    const burst = await withDeployment(() => startEmbedded(settings(burstEnv)), "burst server", (d, t0) => watchBurst(d, t0, `http://127.0.0.1:${metricsPort}/metrics`));
    await report(burst, seedS, launcher.description);
  } finally {
    if (!values["keep-data"]) await rm(tmp, { recursive: true, force: true });
    else log(`data kept in ${tmp}`);
  }
}

async function report(b: Burst, seedS: number, runtime: string): Promise<void> {
  const s = (x: number | null) => (x === null ? "not within 30 min" : `${x.toFixed(1)} s`);
  const rate = (x: number | null) => (x === null ? "—" : (count / x).toFixed(0));
  const poll = Number(pollMs ?? DEFAULT_RENEWAL_POLL_MS);
  const ok = b.sentS !== null && count >= TARGET_COUNT && b.sentS <= TARGET_S;
  const lines = [
    `# bench:notices ${new Date().toISOString()}`,
    "",
    `${count} daily subscriptions seeded through the flow in ${seedS.toFixed(1)} s; Payrail embedded, ${runtime}; ` +
      `RENEWAL_POLL_MS ${pollMs ?? "default"}; Node ${process.version}, ${cpus().length} CPUs. Times from the burst server's spawn (start-up ${b.startupS.toFixed(2)} s).`,
    "",
    "| row | seconds | per second | server CPU s |",
    "| --- | ---: | ---: | ---: |",
    `| ${count} \`subscription.upcoming\` published (scheduler passes + outbox: **baseline**) | ${s(b.announcedS)} | ${rate(b.announcedS)} | |`,
    `| ${count} upcoming-charge notices sent (sandbox outbox) | ${s(b.sentS)} | ${rate(b.sentS)} | ${b.cpuS === null ? "?" : b.cpuS.toFixed(1)} |`,
    "",
    `The first announced ${s(b.firstS)} after the spawn (the scheduler's first pass comes one RENEWAL_POLL_MS tick after the start); ` +
      (b.sentS !== null && b.announcedS !== null ? `the last sent ${(b.sentS - b.announcedS).toFixed(1)} s after the last was announced; ${b.sent} sent in all.` : `${b.sent} sent when the bench stopped watching.`),
    b.firstS !== null && b.sentS !== null ? `From the first pass to the last notice sent: ${(b.sentS - b.firstS).toFixed(1)} s, ${(count / Math.max(0.001, b.sentS - b.firstS)).toFixed(0)} notices/s.` : "",
    "",
    "## Target",
    "",
    count >= TARGET_COUNT
      ? `- **${ok ? "met" : "MISSED"}**: a burst of 10,000 renewals due at once sends its upcoming-charge notices within ${TARGET_S} s: ${s(b.sentS)}${ok ? "" : " ✗"}` +
        (poll === DEFAULT_RENEWAL_POLL_MS ? "" : ` (at RENEWAL_POLL_MS ${poll}, not the default ${DEFAULT_RENEWAL_POLL_MS}, whose first pass comes ${DEFAULT_RENEWAL_POLL_MS / 1000} s after the start)`)
      : `- **not measured** (${count} < 10,000): a burst of 10,000 within ${TARGET_S} s. ` +
        `Projected from this run: the first pass ${s(b.firstS)} after the start, then ${TARGET_COUNT} at this run's notices per second from it.`,
    "",
  ];
  const text = lines.join("\n");
  const out = values.out ?? join(ROOT, "bench/results", `notices-${new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "")}.md`);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, text);
  console.log(`\n${text}`);
  log(`report written to ${relative(process.cwd(), out) || out}`);
}

await main();
