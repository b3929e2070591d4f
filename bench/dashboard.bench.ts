/**
 * The dashboard's checkouts list against the API list it is built on, at two store sizes:
 *
 *   npm run bench:dashboard                                  # 10^3 and 10^6 checkouts, 3 s rows
 *   npm run bench:dashboard -- --sizes 1e3,1e5 --duration 5
 *   npm run bench:dashboard -- --quick                       # 10^3 checkouts, 1 s rows, 10^3 merchants' payouts
 *
 * Per size: one merchant's checkouts seeded through the store (bench/http/seed.ts), Payrail
 * embedded (one process, as bench:http runs it), a dashboard owner invited, accepted and signed
 * in over HTTP; then autocannon rows of the API list and of the dashboard's checkouts page, each
 * at the first page and at a deep cursor (a row about 100 from the oldest, so the page after it
 * is still full). Bare fastify is the baseline, in the same run. Then the checkouts.csv export of
 * every seeded checkout: rows per second against the API list's, and the server's peak RSS
 * (constant memory whatever the size). Then the scheduled payout pass over `--payout-merchants`
 * merchants (default 10^4), each with a few available rows: seconds for the whole pass and the
 * ledger's store round trips per payout (bench/dashboard/payout-run.ts). Prints markdown tables
 * and the dashboard's targets and exits 1 when one is missed. See docs/performance-dashboard.md.
 */
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { parseArgs } from "node:util";
import { signInOwner } from "./dashboard/browser.ts";
import { measureExport, type ExportRow } from "./dashboard/export-row.ts";
import { measurePayoutRun } from "./dashboard/payout-run.ts";
import { checkTargets, renderExports, renderPayoutRun, renderTable, type ListRow, type Position, type Surface } from "./dashboard/report.ts";
import { startBaseline, startEmbedded, type Deployment } from "./http/deployments.ts";
import { sizeLabel } from "./http/figures.ts";
import { getPath } from "./http/load.ts";
import { measureRow, type MeasureSettings } from "./http/measure.ts";
import { payrailLauncher, type Launcher } from "./http/payrail-build.ts";
import { seedCheckouts, storeEnv } from "./http/seed.ts";
import { ROOT } from "./http/servers.ts";

/** The dashboard's page size (checkouts.routes.ts); the API rows ask for as many. */
const PAGE = 25;
/** The deep cursor: the checkout seeded this many from the first, so about this many older rows follow it. */
const DEEP_SEED_INDEX = 100;

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1e3,1e6" },
    duration: { type: "string", default: "3" },
    warmup: { type: "string", default: "1" },
    connections: { type: "string", default: "100" },
    runtime: { type: "string", default: "build" },
    "payout-merchants": { type: "string", default: "1e4" },
    quick: { type: "boolean", default: false },
    out: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  console.log(
    `usage: npm run bench:dashboard -- [--sizes 1e3,1e6] [--duration 3] [--warmup 1] [--connections 100] [--payout-merchants 1e4] [--runtime build|tsx] [--out file] [--quick]\n` +
      `  --quick: --sizes 1e3 --duration 1 --warmup 0 --payout-merchants 1e3 (under a minute)`,
  );
  process.exit(0);
}
const positive = (text: string, flag: string) => {
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${flag}: expected a number ≥ 0, got "${text}"`);
  return n;
};
if (values.quick) Object.assign(values, { sizes: "1e3", duration: "1", warmup: "0", "payout-merchants": "1e3" });
const payoutMerchants = Math.round(positive(values["payout-merchants"], "--payout-merchants"));
const sizes = [...new Set(values.sizes.split(",").map((s) => Math.round(positive(s.trim(), "--sizes"))))].sort((a, b) => a - b);
if (values.runtime !== "build" && values.runtime !== "tsx") throw new Error(`--runtime: expected build or tsx, got "${values.runtime}"`);
const runtime = values.runtime;
const runTag = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
const log = (message: string) => console.error(message);
const measure: MeasureSettings = {
  load: { connections: positive(values.connections, "--connections"), durationS: positive(values.duration, "--duration"), warmupS: positive(values.warmup, "--warmup") },
  flowClients: 0,
  tag: runTag,
  log,
};
const secretsKey = randomBytes(32).toString("base64");
const adminToken = randomBytes(24).toString("hex");

async function getJson<T>(url: string, headers: Record<string, string>): Promise<T> {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The four list rows on one deployment of `size` seeded checkouts. */
async function measureSize(d: Deployment, size: number, merchantId: string, apiKey: string): Promise<ListRow[]> {
  const key = { "api-key": apiKey };
  const owner = await signInOwner(d.url, adminToken, merchantId);
  const found = await getJson<{ data: { id: string }[] }>(`${d.url}/api/merchants/checkout?merchant_checkout_id=seed-${DEEP_SEED_INDEX}`, key);
  const deep = found.data[0]?.id;
  if (!deep) throw new Error(`seed-${DEEP_SEED_INDEX} not found`);
  const paths: Record<Surface, Record<Position, string>> = {
    api: { "first page": `/api/merchants/checkout?limit=${PAGE}`, "deep cursor": `/api/merchants/checkout?limit=${PAGE}&starting_after=${deep}` },
    dashboard: { "first page": "/dashboard/checkouts", "deep cursor": `/dashboard/checkouts?starting_after=${deep}` },
  };
  // Both surfaces must show the same full page before their speed means anything.
  for (const position of ["first page", "deep cursor"] as const) {
    const api = await getJson<{ data: { id: string }[] }>(`${d.url}${paths.api[position]}`, key);
    if (api.data.length !== PAGE) throw new Error(`API ${position}: ${api.data.length} rows, expected ${PAGE}`);
    const res = await fetch(`${d.url}${paths.dashboard[position]}`, { headers: { cookie: owner.cookie } });
    const page = await res.text();
    const missing = api.data.filter((c) => !page.includes(c.id));
    if (res.status !== 200 || missing.length > 0) throw new Error(`dashboard ${position}: ${res.status}, ${missing.length} of the API's rows missing`);
  }
  const rows: ListRow[] = [];
  for (const position of ["first page", "deep cursor"] as const) {
    for (const surface of ["api", "dashboard"] as const) {
      const headers = surface === "api" ? key : { cookie: owner.cookie };
      const row = await measureRow(measure, d, `${surface} ${position} (${sizeLabel(size)})`, getPath(paths[surface][position], headers));
      rows.push({ surface, position, size, result: row.result });
    }
  }
  return rows;
}

async function runSize(size: number, tmp: string, launcher: Launcher): Promise<ListRow[]> {
  log(`\n${sizeLabel(size)} stored checkouts`);
  const target = { dataDir: join(tmp, `embedded-${size}`) };
  const seeded = await seedCheckouts(target, secretsKey, size, sizeLabel(size));
  log(`  seeded in ${seeded.seconds.toFixed(1)} s (${Math.round(size / seeded.seconds)}/s)`);
  seedSeconds.set(size, seeded.seconds);
  // ADMIN_TOKEN rides with the store settings: the admin route invites the dashboard owner.
  const settings = { launcher, logLevel: "warn", storeEnv: { ...storeEnv(target, secretsKey), ADMIN_TOKEN: adminToken } };
  const d = await startEmbedded(settings);
  log(`  embedded: ready in ${d.startupS.toFixed(2)} s at ${d.url}`);
  try {
    const rows = await measureSize(d, size, seeded.merchantId, seeded.apiKey);
    log(`  export: checkouts.csv of all ${sizeLabel(size)} checkouts`);
    const exported = await measureExport(d, seeded.apiKey, size);
    log(`    ${exported.rows} rows in ${exported.seconds.toFixed(2)} s, RSS ${exported.rssBeforeMb?.toFixed(0) ?? "?"} → peak ${exported.rssPeakMb?.toFixed(0) ?? "?"} MB`);
    exports.push(exported);
    return rows;
  } finally {
    await d.stop();
    await rm(target.dataDir, { recursive: true, force: true });
  }
}

const seedSeconds = new Map<number, number>();
const exports: ExportRow[] = [];

async function main(): Promise<number> {
  const launcher = await payrailLauncher(runtime);
  const tmp = await mkdtemp(join(tmpdir(), "payrail-bench-dashboard-"));
  const rows: ListRow[] = [];
  let baseline;
  let payoutRun;
  try {
    const b = await startBaseline();
    try {
      baseline = (await measureRow(measure, b, "bare fastify hello (baseline)", getPath("/"))).result;
    } finally {
      await b.stop();
    }
    for (const size of sizes) rows.push(...(await runSize(size, tmp, launcher)));
    log(`\npayout pass over ${payoutMerchants} merchants`);
    payoutRun = await measurePayoutRun(payoutMerchants, join(tmp, "payouts"), log);
    log(`  ${payoutRun.payouts} payouts in ${payoutRun.seconds.toFixed(1)} s, ${(payoutRun.storeCalls / payoutRun.payouts).toFixed(1)} store round trips each`);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const { lines, missed } = checkTargets(rows);
  const report = [
    `# bench:dashboard ${new Date().toISOString()}`,
    "",
    `Rows of ${measure.load.durationS} s after ${measure.load.warmupS} s of warm-up, ${measure.load.connections} connections (autocannon); ` +
      `Payrail embedded: ${launcher.description}; Node ${process.version}, ${cpus().length} CPUs. ` +
      `Seeded: ${[...seedSeconds].map(([size, s]) => `${sizeLabel(size)} in ${s.toFixed(1)} s`).join(", ")}. ` +
      `Deep cursor: the checkout seeded ${DEEP_SEED_INDEX}th, a full page of older ones after it.`,
    "",
    renderTable(baseline, rows),
    "",
    "Exports (`GET /api/merchants/exports/checkouts.csv`, every checkout, read to the end; baseline: the API list's first-page row, in rows/s):",
    "",
    renderExports(exports, rows, PAGE),
    "",
    `Payout pass (\`payoutPass\`, ledger in this process on the embedded store, payments a fake answering at once; baseline: bare fastify hello, req/s):`,
    "",
    renderPayoutRun(baseline, payoutRun),
    "",
    "Targets:",
    "",
    ...lines,
    "",
  ].join("\n");
  const out = values.out ?? join(ROOT, "bench/results", `dashboard-${runTag}.md`);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, report);
  console.log(`\n${report}`);
  log(`report written to ${relative(process.cwd(), out) || out}`);
  return missed;
}

const missed = await main();
if (missed > 0) {
  log(`${missed} target(s) missed`);
  process.exit(1);
}
