/**
 * HTTP throughput and latency of Payrail, side by side with what bounds it:
 *
 *   npm run bench:http                          # 10^3, 10^5 and 10^6 stored checkouts, 5 s rows
 *   npm run bench:http -- --quick               # smoke run: 10^3 only, 2 s rows
 *   npm run bench:http -- --sizes 1e3,1e6 --duration 10
 *   eval "$(bash scripts/infra-up.sh)" && npm run bench:http   # adds the MongoDB-wire rows
 *
 * Per size: bare fastify (baseline), fastify → RabbitMQ RPC → echo (ceiling) and the lean anchor
 * (Create and Get written plainly on one SQLite file, bench/http/servers/lean-anchor.server.ts); then Payrail
 * embedded (one process) and in RabbitMQ mode (gateway process + domain process), each on
 * checkouts seeded through the store; Get, List and Create rows by autocannon, the full
 * payment flow by concurrent clients. Every server is a child process (Payrail compiled by
 * bin/build.ts and run as production runs it, unless --runtime tsx); the load comes from this one. Prints markdown tables and the targets of the "Data path at scale" issue, and
 * writes them to bench/results/. See docs/performance.md.
 */
import { randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { createAmqpTransport } from "@payrail/messaging";
import { silentLogger } from "@payrail/runtime";
import { benchAmqpUrl, redactUrl } from "./http/amqp-vhost.ts";
import { parseBenchArgs, USAGE, type BenchOptions } from "./http/args.ts";
import { startBaseline, startCeiling, startEmbedded, startLeanAnchor, startRabbitMq, type Deployment } from "./http/deployments.ts";
import { measureFlowVariants } from "./http/flow-variants.ts";
import { sizeLabel, type AnchorFigures, type ModeFigures, type SizeFigures } from "./http/figures.ts";
import { seedLeanAnchor } from "./http/lean-anchor/seed-lean.ts";
import { payrailLauncher, type Launcher } from "./http/payrail-build.ts";
import { getPath } from "./http/load.ts";
import { measureAnchor, measureMode, measureRow, type MeasureSettings } from "./http/measure.ts";
import { dropDatabase, seedCheckouts, storeEnv, type Seeded, type StoreTarget } from "./http/seed.ts";
import { ROOT } from "./http/servers.ts";
import { renderScaling, renderSizes } from "./http/table.ts";
import { renderTargets } from "./http/targets.ts";

const options = parseBenchArgs(process.argv.slice(2));
if (options === "help") {
  console.log(USAGE);
  process.exit(0);
}
const opts: BenchOptions = options;
const secretsKey = randomBytes(32).toString("base64");
const runTag = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
const log = (message: string) => console.error(message);
const measure: MeasureSettings = {
  load: { connections: opts.connections, durationS: opts.durationS, warmupS: opts.warmupS },
  flowClients: opts.flowClients,
  tag: runTag,
  log,
};

async function withDeployment<T>(start: () => Promise<Deployment>, what: string, fn: (d: Deployment) => Promise<T>): Promise<T> {
  log(`  ${what}: starting`);
  const d = await start();
  log(`  ${what}: ready in ${d.startupS.toFixed(2)} s at ${d.url} (pids ${d.processes.map((p) => `${p.name} ${p.pid}`).join(", ")})`);
  try {
    return await fn(d);
  } finally {
    await d.stop();
  }
}

async function seed(target: StoreTarget, size: number, where: string): Promise<Seeded> {
  log(`  seeding ${sizeLabel(size)} checkouts (${where})`);
  const seeded = await seedCheckouts(target, secretsKey, size, sizeLabel(size));
  log(`  seeded in ${seeded.seconds.toFixed(1)} s (${Math.round(size / seeded.seconds)}/s), of which ${seeded.drainSeconds.toFixed(1)} s delivering their events`);
  return seeded;
}

async function brokerAnswers(url: string): Promise<boolean> {
  const transport = await createAmqpTransport({ url, logger: silentLogger(), connectTimeoutMs: 3_000 });
  const ready = transport.isReady();
  await transport.close();
  return ready;
}

/** The lean anchor's Get and Create on its own file seeded with `size` checkouts. */
async function measureLeanAnchor(size: number, dir: string): Promise<AnchorFigures> {
  await mkdir(dir, { recursive: true });
  log(`  seeding ${sizeLabel(size)} checkouts (lean anchor)`);
  const seeded = await seedLeanAnchor(dir, size);
  log(`  seeded in ${seeded.seconds.toFixed(1)} s`);
  try {
    return await withDeployment(() => startLeanAnchor(seeded.dbPath), "lean anchor", (d) => measureAnchor(measure, d, seeded, size));
  } finally {
    if (!opts.keepData) await rm(dir, { recursive: true, force: true });
  }
}

/** The reference rows, then each chosen mode, on `size` seeded checkouts. */
async function measureSize(
  size: number,
  tmp: string,
  launcher: Launcher,
  amqpUrl: string | null,
  mongodbUrl: string | undefined,
): Promise<SizeFigures> {
  log(`\n${sizeLabel(size)} stored checkouts`);
  const baseline = await withDeployment(startBaseline, "baseline", (d) => measureRow(measure, d, "bare fastify hello (baseline)", getPath("/")));
  const ceiling = amqpUrl
    ? await withDeployment(() => startCeiling(amqpUrl, opts.logLevel), "ceiling", (d) => measureRow(measure, d, "fastify → RabbitMQ RPC → echo (ceiling)", getPath("/")))
    : null;
  const modes: ModeFigures[] = [];
  const failures: string[] = [];
  const embedded = opts.modes.has("embedded");
  const rabbitmq = opts.modes.has("rabbitmq") && amqpUrl !== null;
  const anchor = embedded || rabbitmq ? await measureLeanAnchor(size, join(tmp, `lean-${size}`)) : null;
  // A mode that fails (a server that does not start, a probe refused) costs its rows, not the run.
  const attempt = async (what: string, fn: () => Promise<ModeFigures>) => {
    try {
      modes.push(await fn());
    } catch (err) {
      const message = (err as Error).message;
      log(`  ${what} FAILED: ${message}`);
      failures.push(`${what} failed: ${message.split("\n")[0]}`);
    }
  };
  const settingsOf = (target: StoreTarget) => ({ launcher, logLevel: opts.logLevel, sharedLimits: opts.sharedLimits, storeEnv: storeEnv(target, secretsKey) });

  if (embedded || rabbitmq) {
    const dir = join(tmp, `embedded-${size}`);
    const seeded = await seed({ dataDir: dir }, size, "embedded store");
    // RabbitMQ mode gets its own copy: the embedded rows' creates must not grow its size.
    const copy = join(tmp, `rabbitmq-${size}`);
    if (rabbitmq) await cp(dir, copy, { recursive: true });
    if (embedded) {
      await attempt("embedded", () => withDeployment(() => startEmbedded(settingsOf({ dataDir: dir })), "embedded", (d) => measureMode(measure, "embedded", d, seeded, size)));
      // The full flow with and without notices, and screening's share, on the same store in the same run.
      const mode = modes.find((m) => m.mode === "embedded");
      if (mode) {
        try {
          mode.flowVariants = await measureFlowVariants(measure, settingsOf({ dataDir: dir }), seeded.apiKey, withDeployment);
        } catch (err) {
          log(`  full-flow variants FAILED: ${(err as Error).message}`);
          failures.push(`full-flow variants failed: ${(err as Error).message.split("\n")[0]}`);
        }
      }
    }
    if (!opts.keepData) await rm(dir, { recursive: true, force: true });
    if (rabbitmq && amqpUrl) {
      const settings = settingsOf({ dataDir: copy });
      await attempt("RabbitMQ mode", () => withDeployment(() => startRabbitMq(settings, amqpUrl), "RabbitMQ mode", (d) => measureMode(measure, "rabbitmq", d, seeded, size)));
      if (!opts.keepData) await rm(copy, { recursive: true, force: true });
    }
  }
  if (opts.modes.has("mongo") && amqpUrl && mongodbUrl) {
    const target = { mongodbUrl, dbName: `payrail_bench_${runTag}_${size}`, dataDir: join(tmp, `mongo-${size}`) };
    const what = "RabbitMQ mode, MongoDB-wire store";
    try {
      await attempt(what, async () => {
        const seeded = await seed(target, size, `MongoDB-wire database ${target.dbName}`);
        return withDeployment(() => startRabbitMq(settingsOf(target), amqpUrl), what, (d) => measureMode(measure, "rabbitmq-mongo", d, seeded, size));
      });
    } finally {
      if (!opts.keepData) await dropDatabase(target, secretsKey).catch((err: unknown) => log(`  could not drop ${target.dbName}: ${(err as Error).message}`));
    }
  }
  return { size, reference: { baseline, ceiling, anchor }, modes, failures };
}

async function main(): Promise<void> {
  const amqp = await benchAmqpUrl(process.env["BENCH_AMQP_URL"] ?? process.env["AMQP_URL"] ?? "amqp://guest:guest@127.0.0.1:5672");
  const amqpUrl = (await brokerAnswers(amqp.url)) ? amqp.url : null;
  const mongodbUrl = process.env["MONGODB_URL"];
  log(opts.runtime === "build" ? "building Payrail (bin/build.ts)" : "Payrail runs from its sources through tsx");
  const launcher = await payrailLauncher(opts.runtime, opts.nodeFlags);
  const tmp = await mkdtemp(join(tmpdir(), "payrail-bench-http-"));
  const mongoLine = !opts.modes.has("mongo")
    ? "MongoDB-wire rows not asked for."
    : !mongodbUrl
      ? "MongoDB-wire rows skipped: MONGODB_URL is not set."
      : amqpUrl
        ? `MongoDB-wire rows: ${redactUrl(mongodbUrl)}.`
        : "MongoDB-wire rows skipped: they run in RabbitMQ mode, and no broker answered.";
  const header = [
    `# bench:http ${new Date().toISOString()}`,
    "",
    `Sizes ${opts.sizes.map(sizeLabel).join(", ")}; rows of ${opts.durationS} s after ${opts.warmupS} s of warm-up; ` +
      `${opts.connections} connections (autocannon, in the bench process); full flow by ${opts.flowClients} clients; ` +
      `servers at LOG_LEVEL=${opts.logLevel}, SHARED_LIMITS=${opts.sharedLimits}, Node ${process.version}, ${cpus().length} CPUs.`,
    `Payrail: ${launcher.description}; the baseline and ceiling servers run through tsx.`,
    amqpUrl ? `RabbitMQ: ${redactUrl(amqpUrl)}, ${amqp.note}.` : `RabbitMQ rows skipped: no broker at ${redactUrl(amqp.url)}.`,
    mongoLine,
    "",
  ];
  log(header.join("\n"));
  log(`data under ${tmp}`);
  const figures: SizeFigures[] = [];
  try {
    for (const size of opts.sizes) figures.push(await measureSize(size, tmp, launcher, amqpUrl, mongodbUrl));
  } finally {
    if (!opts.keepData) await rm(tmp, { recursive: true, force: true });
  }

  const report = [header.join("\n"), renderSizes(figures), renderScaling(figures), renderTargets(figures)].join("\n");
  const out = opts.out ?? join(ROOT, "bench/results", `http-${runTag}.md`);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, report);
  console.log(`\n${report}`);
  log(`report written to ${relative(process.cwd(), out) || out}`);
}

await main();
