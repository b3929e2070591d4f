/**
 * Issue 25's last row: RabbitMQ + the MongoDB-wire store, the services in their own processes
 * (a domain process and a gateway process, as `bench:http` runs RabbitMQ mode), and 100 concurrent
 * get_processor_token on 100 linked checkouts. Every call must answer 200 within 10 s, with one
 * transfer each (100 distinct transaction ids).
 *
 *   MONGODB_URL=mongodb://127.0.0.1:27017 npx tsx bench/processor-token-burst.ts [--calls 100]
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { Agent } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { benchAmqpUrl } from "./http/amqp-vhost.ts";
import { startRabbitMq } from "./http/deployments.ts";
import { getProcessorToken, jsonClient, linkedCheckout } from "./http/full-flow.ts";
import { payrailLauncher } from "./http/payrail-build.ts";
import { dropDatabase, seedCheckouts, storeEnv } from "./http/seed.ts";

const { values } = parseArgs({ options: { calls: { type: "string", default: "100" } } });
const calls = Number(values.calls);
const TIMEOUT_MS = 10_000;
const mongodbUrl = process.env["MONGODB_URL"];
if (!mongodbUrl) throw new Error("MONGODB_URL is required");
const amqp = await benchAmqpUrl(process.env["BENCH_AMQP_URL"] ?? process.env["AMQP_URL"] ?? "amqp://guest:guest@127.0.0.1:5672");
const secretsKey = randomBytes(32).toString("base64");
const tmp = await mkdtemp(join(tmpdir(), "payrail-burst-"));
const target = { mongodbUrl, dbName: `payrail_burst_${Date.now()}`, dataDir: tmp };
const launcher = await payrailLauncher("build");
const seeded = await seedCheckouts(target, secretsKey, 1, "burst");
const d = await startRabbitMq({ launcher, logLevel: "warn", storeEnv: storeEnv(target, secretsKey) }, amqp.url);
try {
  const call = jsonClient(d.url, new Agent({ keepAlive: true, maxSockets: calls }));
  const ids: string[] = [];
  // Linked ten at a time: the setup is not what is measured.
  while (ids.length < calls) ids.push(...(await Promise.all(Array.from({ length: Math.min(10, calls - ids.length) }, () => linkedCheckout(call, seeded.apiKey)))));
  const t0 = performance.now();
  const answers = await Promise.allSettled(
    ids.map(async (id) => {
      const answer = await getProcessorToken(call, seeded.apiKey, id, TIMEOUT_MS);
      return { id: answer.transaction_id as string, ms: performance.now() - t0 };
    }),
  );
  const ok = answers.flatMap((a) => (a.status === "fulfilled" ? [a.value] : []));
  const failed = answers.flatMap((a) => (a.status === "rejected" ? [String((a.reason as Error).message).slice(0, 120)] : []));
  const slowest = Math.max(0, ...ok.map((a) => a.ms));
  console.log(
    `${launcher.description}\n${calls} concurrent get_processor_token: ${ok.length} answered 200 within ${TIMEOUT_MS / 1000} s ` +
      `(slowest ${(slowest / 1000).toFixed(2)} s), ${new Set(ok.map((a) => a.id)).size} distinct transaction ids, ${failed.length} failed` +
      (failed.length ? ` (first: ${failed[0]})` : ""),
  );
} finally {
  await d.stop();
  await dropDatabase(target, secretsKey).catch(() => undefined);
  await rm(tmp, { recursive: true, force: true });
}
