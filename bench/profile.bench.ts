/**
 * Where one row's CPU goes: the production build of `payrail start` (embedded, one process, as
 * `npm run bench:http` runs it) under `node --cpu-prof`, seeded with checkouts through the store,
 * loaded by autocannon for a while; then the profile's busy samples inside the measured window
 * (start-up and warm-up left out), by function and by origin.
 *
 *   npx tsx bench/profile.bench.ts                     # Get, 10^3 checkouts, 6 s after 1 s of warm-up
 *   npx tsx bench/profile.bench.ts --row create --duration 10 --top 40
 *
 * The `.cpuprofile` is kept (its path is printed) for Chrome's DevTools or speedscope.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { summariseProfile, type ProfileShare } from "./http/cpu-profile.ts";
import { startEmbedded } from "./http/deployments.ts";
import { createCheckout, getCheckout, type RequestShape } from "./http/load.ts";
import { payrailLauncher } from "./http/payrail-build.ts";
import { seedCheckouts, storeEnv } from "./http/seed.ts";

const { values } = parseArgs({
  options: {
    row: { type: "string", default: "get" },
    size: { type: "string", default: "1e3" },
    duration: { type: "string", default: "6" },
    warmup: { type: "string", default: "1" },
    connections: { type: "string", default: "100" },
    top: { type: "string", default: "30" },
  },
});
const row = values.row;
if (row !== "get" && row !== "create") throw new Error(`--row: get or create, not "${row}"`);
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
const d = await startEmbedded({ launcher: profiled, logLevel: "warn", storeEnv: storeEnv({ dataDir }, secretsKey) });
const shape: RequestShape = row === "get" ? getCheckout(seeded.apiKey, seeded.sampleIds) : createCheckout(seeded.apiKey, `profile-${Date.now()}`);
const common = { url: d.url, connections: Number(values.connections), ...shape };
let from = 0;
let to = 0;
try {
  if (Number(values.warmup) > 0) await autocannon({ ...common, duration: Number(values.warmup) });
  from = now();
  const result = await autocannon({ ...common, duration: Number(values.duration) });
  to = now();
  console.log(`${row}: ${Math.round(result.requests.total / result.duration)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`);
} finally {
  await d.stop();
}
const [file] = (await readdir(profileDir)).filter((f) => f.endsWith(".cpuprofile"));
if (!file) throw new Error(`no profile written in ${profileDir}`);
const summary = summariseProfile(join(profileDir, file), from, to);
const print = (title: string, list: ProfileShare[]) => {
  console.log(`\n${title}`);
  for (const { name, share } of list.slice(0, top)) console.log(`${(share * 100).toFixed(1).padStart(6)}%  ${name}`);
};
console.log(`busy samples in the window: ${summary.busySamples}`);
print("self time", summary.self);
print("inclusive time", summary.inclusive);
print("self time by origin", summary.origins);
await rm(dataDir, { recursive: true, force: true });
console.log(`\nprofile: ${join(profileDir, file)}`);
