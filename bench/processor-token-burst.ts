/**
 * Get Processor Token in a burst, on RabbitMQ + the MongoDB-wire store, the services in their own
 * processes (a gateway and `--replicas` domain processes, as a deployment runs them): `--calls`
 * concurrent calls on `--checkouts` linked checkouts (two calls a checkout by default: a merchant
 * retrying, or two workers racing). Every call must be answered within the RPC deadline: 200
 * with the checkout's one transaction, or, for a call that meets another at work on the same
 * checkout, 409 `transfer_in_progress` at once (not after waiting for the other). One transfer
 * per checkout.
 *
 * A checkout that got only 409s (its transfer still at work when its callers' deadline came)
 * is asked again every second until it answers its transaction, as a merchant told
 * `Retry-After: 1` would.
 *
 * It also prints the store's cost of a transfer: the commands the store served during the burst
 * and its retries (`serverStatus` `metrics.commands`, which MongoDB and FerretDB both keep), by
 * kind, per checkout transferred. Everything the domain processes did in that window counts (their event
 * relay and subscribers too), which is what a transfer costs the store.
 *
 *   MONGODB_URL=mongodb://127.0.0.1:27017 npx tsx bench/processor-token-burst.ts [--calls 200] [--checkouts 100] [--replicas 2]
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { Agent } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { MongoClient } from "mongodb";
import { benchAmqpUrl } from "./http/amqp-vhost.ts";
import { startRabbitMq } from "./http/deployments.ts";
import { getProcessorToken, jsonClient, linkedCheckout } from "./http/full-flow.ts";
import { payrailLauncher } from "./http/payrail-build.ts";
import { dropDatabase, seedCheckouts, storeEnv } from "./http/seed.ts";

const { values } = parseArgs({ options: { calls: { type: "string", default: "200" }, checkouts: { type: "string", default: "100" }, replicas: { type: "string", default: "2" } } });
const calls = Number(values.calls);
const checkouts = Number(values.checkouts);
const replicas = Number(values.replicas);
if (!(calls >= checkouts && checkouts >= 1 && replicas >= 1)) throw new Error("--calls must be at least --checkouts, and both and --replicas at least 1");
/** The gateway's RPC deadline (RPC_TIMEOUT_MS's default): a call not answered by then has failed. */
const DEADLINE_MS = 10_000;
const mongodbUrl = process.env["MONGODB_URL"];
if (!mongodbUrl) throw new Error("MONGODB_URL is required");
const amqp = await benchAmqpUrl(process.env["BENCH_AMQP_URL"] ?? process.env["AMQP_URL"] ?? "amqp://guest:guest@127.0.0.1:5672");
const secretsKey = randomBytes(32).toString("base64");
const tmp = await mkdtemp(join(tmpdir(), "payrail-burst-"));
const target = { mongodbUrl, dbName: `payrail_burst_${Date.now()}`, dataDir: tmp };
const launcher = await payrailLauncher("build");
const seeded = await seedCheckouts(target, secretsKey, 1, "burst");
const d = await startRabbitMq({ launcher, logLevel: "warn", storeEnv: storeEnv(target, secretsKey) }, amqp.url, replicas);
const admin = new MongoClient(mongodbUrl);

/** The store's command counters (every client's), by command name. */
async function commandCounts(): Promise<Map<string, number>> {
  const status = await admin.db("admin").command({ serverStatus: 1 });
  const commands = (status["metrics"]?.["commands"] ?? {}) as Record<string, { total?: number | { toNumber(): number } }>;
  return new Map(Object.entries(commands).map(([name, c]) => [name, typeof c.total === "number" ? c.total : (c.total?.toNumber() ?? 0)]));
}

type Answer = { checkout: string; ms: number } & ({ status: 200; transactionId: string } | { status: 409 } | { status: "failed"; error: string });

try {
  const call = jsonClient(d.url, new Agent({ keepAlive: true, maxSockets: calls }));
  const ids: string[] = [];
  // Linked ten at a time: the setup is not what is measured.
  while (ids.length < checkouts) ids.push(...(await Promise.all(Array.from({ length: Math.min(10, checkouts - ids.length) }, () => linkedCheckout(call, seeded.apiKey)))));
  // Whatever linking left to relay and deliver settles first, so that the counts are the burst's.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const before = await commandCounts();
  const t0 = performance.now();
  /** One Get Processor Token call on `checkout`, and when (since the burst began) it was answered. */
  const ask = async (checkout: string): Promise<Answer> => {
    try {
      const answer = await getProcessorToken(call, seeded.apiKey, checkout, DEADLINE_MS);
      return { checkout, ms: performance.now() - t0, status: 200, transactionId: answer.transaction_id as string };
    } catch (err) {
      const error = String((err as Error).message);
      const ms = performance.now() - t0;
      return / 409 .*transfer_in_progress/.test(error) ? { checkout, ms, status: 409 } : { checkout, ms, status: "failed", error: error.slice(0, 160) };
    }
  };
  const answers: Answer[] = await Promise.all(Array.from({ length: calls }, (_, i) => ask(ids[i % checkouts]!)));
  const burstMs = performance.now() - t0;
  // A checkout none of whose calls answered 200 (each answered 409, its transfer still at work
  // when the caller's deadline came) is asked again every second, as Retry-After: 1 tells a
  // merchant, until it answers its transaction: those retries are part of the transfers' cost.
  const retried: Answer[] = [];
  let waiting = ids.filter((id) => !answers.some((a) => a.checkout === id && a.status === 200));
  for (let round = 0; waiting.length > 0 && round < 30; round++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const again = await Promise.all(waiting.map(ask));
    retried.push(...again);
    waiting = waiting.filter((id) => !again.some((a) => a.checkout === id && a.status !== 409));
  }
  const lastPaidMs = Math.max(...[...answers, ...retried].filter((a) => a.status === 200).map((a) => a.ms), burstMs);
  // The events of the transfers (outbox → broker → subscribers) are part of their cost.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const after = await commandCounts();

  const paid = answers.filter((a) => a.status === 200);
  const busy = answers.filter((a) => a.status === 409);
  const failed = answers.filter((a): a is Answer & { status: "failed"; error: string } => a.status === "failed");
  const paidOnRetry = retried.filter((a) => a.status === 200);
  const paidInBurst = new Set(paid.map((a) => a.checkout)).size;
  const perCheckout = new Map<string, Set<string>>();
  for (const a of [...paid, ...paidOnRetry]) perCheckout.set(a.checkout, (perCheckout.get(a.checkout) ?? new Set()).add(a.transactionId));
  const retryFailed = retried.filter((a) => a.status === "failed");
  const disagreeing = [...perCheckout.values()].filter((s) => s.size > 1).length;
  const slowest = (as: Answer[]) => (as.length ? `${(Math.max(...as.map((a) => a.ms)) / 1000).toFixed(2)} s` : "–");
  console.log(`${launcher.description}; ${replicas} domain process(es), a gateway, RabbitMQ, MongoDB wire at ${mongodbUrl}`);
  console.log(`${calls} concurrent get_processor_token on ${checkouts} checkouts, all sent at once; ${(burstMs / 1000).toFixed(2)} s to the last answer`);
  console.log("");
  console.log("| answer | calls | slowest |");
  console.log("| --- | ---: | ---: |");
  console.log(`| 200, the checkout's transaction | ${paid.length} | ${slowest(paid)} |`);
  console.log(`| 409 transfer_in_progress | ${busy.length} | ${slowest(busy)} |`);
  console.log(`| failed (other status, or no answer within ${DEADLINE_MS / 1000} s) | ${failed.length} | ${slowest(failed)} |`);
  console.log("");
  console.log(
    `${paidInBurst} of ${checkouts} checkouts answered 200 in the burst, ${paidOnRetry.length} more on a retry (one a second after a 409, ${retried.length} retries; the last 200 at ${(lastPaidMs / 1000).toFixed(2)} s); ` +
      `${new Set([...paid, ...paidOnRetry].map((a) => a.transactionId)).size} distinct transactions; ` +
      `${disagreeing} checkouts answered two different transactions; ${(perCheckout.size / (lastPaidMs / 1000)).toFixed(1)} transfers/s until the last 200`,
  );
  if (failed.length) console.log(`first failure: ${failed[0]!.error}`);
  if (retryFailed.length) console.log(`first failed retry: ${(retryFailed[0] as { error: string }).error}`);
  const used = [...after].map(([name, total]) => [name, total - (before.get(name) ?? 0)] as const).filter(([name, n]) => n > 0 && name !== "serverStatus");
  const reads = ["find", "aggregate", "count", "distinct", "getMore"];
  const writes = ["insert", "update", "findAndModify", "delete"];
  const sum = (names: string[]) => used.filter(([n]) => names.includes(n)).reduce((t, [, k]) => t + k, 0);
  const transferred = Math.max(1, perCheckout.size);
  console.log("");
  console.log(`store commands per checkout transferred (${transferred}): ${(sum(reads) / transferred).toFixed(1)} reads, ${(sum(writes) / transferred).toFixed(1)} writes`);
  console.log(`  by command: ${used.map(([n, k]) => `${n} ${(k / transferred).toFixed(1)}`).join(", ")}`);
  process.exitCode = failed.length === 0 && retryFailed.length === 0 && disagreeing === 0 && perCheckout.size === checkouts ? 0 : 1;
} finally {
  await admin.close();
  await d.stop();
  await dropDatabase(target, secretsKey).catch(() => undefined);
  await rm(tmp, { recursive: true, force: true });
}
