/**
 * Where one row's CPU goes: the production build of `payrail start` (embedded in one process, or
 * a gateway and a domain process on RabbitMQ, as `npm run bench:http` runs them) under
 * `node --cpu-prof`, seeded with checkouts through the store, loaded by autocannon for a while;
 * then each process's busy samples inside the measured window (start-up and warm-up left out),
 * by function and by origin.
 *
 *   npx tsx bench/profile.bench.ts                     # embedded Get, 10^3 checkouts, 6 s after 1 s of warm-up
 *   npx tsx bench/profile.bench.ts --row create --duration 10 --top 40
 *   npx tsx bench/profile.bench.ts --row flow           # the full payment flow by 10 clients (--connections)
 *   npx tsx bench/profile.bench.ts --mode rabbitmq     # broker: BENCH_AMQP_URL or AMQP_URL, as bench:http
 *   npx tsx bench/profile.bench.ts --settle 15         # wait 15 s more after the server went idle
 *   npx tsx bench/profile.bench.ts --row create --drain # the window runs on until the row's events are relayed and handled
 *
 * The `.cpuprofile` files are kept (their paths are printed) for Chrome's DevTools or speedscope.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { summariseProfile, type ProfileShare } from "./http/cpu-profile.ts";
import { benchAmqpUrl } from "./http/amqp-vhost.ts";
import { startEmbedded, startRabbitMq } from "./http/deployments.ts";
import { runFullFlow } from "./http/full-flow.ts";
import { createCheckout, getCheckout, runLoad, type RequestShape } from "./http/load.ts";
import { serversCpuMs, untilIdle } from "./http/measure.ts";
import { payrailLauncher } from "./http/payrail-build.ts";
import { seedCheckouts, storeEnv } from "./http/seed.ts";

const { values } = parseArgs({
  options: {
    row: { type: "string", default: "get" },
    mode: { type: "string", default: "embedded" },
    size: { type: "string", default: "1e3" },
    duration: { type: "string", default: "6" },
    warmup: { type: "string", default: "1" },
    // Seconds to wait on top of the server going idle (the seeded checkouts' events relayed).
    settle: { type: "string", default: "0" },
    // The window ends once the server is idle again, not with the row: what a create costs after
    // it answered (its events relayed and handled) is then in the profile too.
    drain: { type: "boolean", default: false },
    // For --row flow: concurrent flow clients (default 10, as bench:http's --flow-clients).
    connections: { type: "string" },
    top: { type: "string", default: "30" },
  },
});
const row = values.row;
if (row !== "get" && row !== "create" && row !== "flow") throw new Error(`--row: get, create or flow, not "${row}"`);
const mode = values.mode;
if (mode !== "embedded" && mode !== "rabbitmq") throw new Error(`--mode: embedded or rabbitmq, not "${mode}"`);
const size = Math.round(Number(values.size));
const top = Number(values.top);

const now = () => Number(process.hrtime.bigint() / 1000n);
const tmp = await mkdtemp(join(tmpdir(), "payrail-profile-"));
const profileDir = join(tmp, "profile");
const secretsKey = randomBytes(32).toString("base64");
console.error("building Payrail (bin/build.ts)");
const launcher = await payrailLauncher("build");
const dataDir = join(tmp, "data");
console.error(`seeding ${size} checkouts`);
const seeded = await seedCheckouts({ dataDir }, secretsKey, size, String(size));
const profiled = { ...launcher, argv: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, ...launcher.argv] };
const settings = { launcher: profiled, logLevel: "warn", storeEnv: storeEnv({ dataDir }, secretsKey) };
const amqpUrl = mode === "rabbitmq" ? (await benchAmqpUrl(process.env["BENCH_AMQP_URL"] ?? process.env["AMQP_URL"] ?? "amqp://guest:guest@127.0.0.1:5672")).url : "";
const d = mode === "embedded" ? await startEmbedded(settings) : await startRabbitMq(settings, amqpUrl);
const shape: RequestShape = row === "get" ? getCheckout(seeded.apiKey, seeded.sampleIds) : createCheckout(seeded.apiKey, `profile-${Date.now()}`);
const load = { connections: Number(values.connections ?? (row === "flow" ? 10 : 100)), durationS: Number(values.duration), warmupS: Number(values.warmup) };
let from = 0;
let to = 0;
/** Requests (flows, for --row flow) in the window. */
let requests = 0;
try {
  await untilIdle(d);
  await new Promise((resolve) => setTimeout(resolve, Number(values.settle) * 1000));
  if (row === "flow") {
    if (load.warmupS > 0) await runFullFlow(d.url, seeded.apiKey, load.connections, load.warmupS);
    const cpuFrom = serversCpuMs(d);
    from = now();
    const result = await runFullFlow(d.url, seeded.apiKey, load.connections, load.durationS);
    to = now();
    requests = result.flows;
    const cpu = cpuFrom === null ? null : serversCpuMs(d);
    const perFlow = cpu === null || cpuFrom === null || result.flows === 0 ? "" : `, ${((cpu - cpuFrom) / result.flows).toFixed(2)} ms CPU/flow`;
    console.log(`flow: ${result.flowsPerS.toFixed(1)} flows/s, p50 ${result.p50.toFixed(0)} ms, p99 ${result.p99.toFixed(0)} ms, failed ${result.errors}${perFlow}`);
  } else {
    const result = await runLoad(d.url, shape, load, () => (from = now()));
    if (values.drain) await untilIdle(d);
    to = now();
    requests = result.requests;
    console.log(`${row}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, errors ${result.errors}`);
  }
} finally {
  await d.stop();
}
const files = (await readdir(profileDir)).filter((f) => f.endsWith(".cpuprofile"));
if (files.length === 0) throw new Error(`no profile written in ${profileDir}`);
const print = (title: string, list: ProfileShare[]) => {
  console.log(`\n${title}`);
  for (const { name, share } of list.slice(0, top)) console.log(`${(share * 100).toFixed(1).padStart(6)}%  ${name}`);
};
for (const p of d.processes) {
  // node names the file CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile
  const file = files.find((f) => f.split(".")[3] === String(p.pid));
  if (!file) continue;
  const summary = summariseProfile(join(profileDir, file), from, to);
  // --cpu-prof samples every millisecond by default, so samples a request are about its busy ms.
  const perRequest = requests > 0 ? ` (${(summary.busySamples / requests).toFixed(3)} a ${row === "flow" ? "flow" : "request"})` : "";
  console.log(`\n## ${p.name}: busy samples in the window: ${summary.busySamples}${perRequest}`);
  print("self time", summary.self);
  print("inclusive time", summary.inclusive);
  print("self time by origin", summary.origins);
  console.log(`\nprofile: ${join(profileDir, file)}`);
}
await rm(dataDir, { recursive: true, force: true });
