import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMerchantOp, type MerchantPrincipal } from "@payrail/contracts";
import { createAmqpTransport, type Transport } from "@payrail/messaging";
import { amqpTestUrl, testQueuePrefix } from "@payrail/messaging/testing";
import { silentLogger } from "@payrail/runtime";
import { createEventDeadLetters, withIndexCheck, type Store } from "@payrail/store";
import { createMongoStore } from "@payrail/store/mongo";
import { mongoTestUrl } from "@payrail/store/testing";
import { checkConsistency } from "../../bin/check/consistency-check.ts";
import { linkedCheckoutOverRpc } from "../support/rpc-flow.ts";
import { until } from "../support/until.ts";
import { startCuttableProxy, type CuttableProxy } from "./support/cuttable-proxy.ts";
import { merchantRetries } from "./support/merchant-retries.ts";

const broker = await amqpTestUrl();
const mongo = await mongoTestUrl();
const skipReason = broker.skipReason ?? mongo.skipReason;

/** How long the store is away. */
const OUTAGE_MS = 15_000;
const TRANSFERS = 30;
/** The crash point: the store goes away once this many of the settlements have been made. */
const SETTLED_BEFORE_OUTAGE = 10;
/** How long the test waits, after the store is back, for everything to agree (issue 19's bound, which the bench checks). */
const CONVERGENCE_MS = 60_000;
const SERVICES = ["identity", "checkout", "payments", "refunds", "webhooks", "gateway"] as const;

/**
 * Issue 19: the store (a MongoDB-wire server) stops for 15 s while 30 transfers settle, with
 * every service in its own process on RabbitMQ. The outage is a TCP proxy between the services
 * and FerretDB that drops every connection and resets new ones: as the services see it, the
 * server is gone; FerretDB's data, in PostgreSQL, is kept, as it is when its process stops.
 */
describe.skipIf(!!skipReason)("the store stops for 15 s while 30 transfers settle (RabbitMQ + Mongo-wire, one process per service)", () => {
  const suffix = randomBytes(4).toString("hex");
  const queuePrefix = testQueuePrefix();
  const dbName = `payrail_test_${suffix}`;
  const secretsKey = randomBytes(32).toString("base64");
  const logger = silentLogger();
  const children: ChildProcess[] = [];
  let proxy: CuttableProxy;
  let store: Store;
  let client: Transport;
  let baseUrl: string;
  let apiKey: string;
  let merchant: MerchantPrincipal;

  beforeAll(async () => {
    const target = new URL(mongo.url!);
    proxy = await startCuttableProxy({ host: target.hostname, port: Number(target.port || 27017) });
    // The test's own reads go straight to the server, never through the proxy.
    store = withIndexCheck(createMongoStore({ url: mongo.url!, dbName, logger }), { mode: "enforce" });
    const urls = await Promise.all(SERVICES.map((s) => startService(s)));
    baseUrl = urls[SERVICES.indexOf("gateway")]!;
    client = await createAmqpTransport({ url: broker.url!, logger, queuePrefix, defaultTimeoutMs: 10_000 });
    const created = await client.call(createMerchantOp, { name: "Acme" }, { requestId: "r", principal: { kind: "admin" } });
    apiKey = created.api_key;
    merchant = { kind: "merchant", merchantId: created.merchant.id, keyPrefix: created.key_prefix, livemode: false };
  }, 150_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await client?.close().catch(() => undefined);
    await proxy?.close();
    await store?.drop().catch(() => undefined);
    await store?.close();
    await broker.stop();
    await mongo.stop();
  });

  /** One service in its own process, reaching the store through the proxy; resolves with its URL (the gateway's) or "". */
  async function startService(service: string): Promise<string> {
    const script = fileURLToPath(new URL("./support/service-process.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      env: {
        ...process.env,
        SERVICE: service,
        AMQP_URL: broker.url!,
        MONGODB_URL: `mongodb://127.0.0.1:${proxy.port}`,
        TEST_QUEUE_PREFIX: queuePrefix,
        TEST_DB: dbName,
        TEST_SECRETS_KEY: secretsKey,
        RENEWAL_POLL_MS: "0",
        // FAULTS_LOG_LEVEL=warn shows what each service logs through the outage.
        LOG_LEVEL: process.env["FAULTS_LOG_LEVEL"] ?? "silent",
      },
      stdio: ["pipe", "pipe", "inherit"],
    });
    children.push(child);
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    await until(`${service} to serve`, () => {
      if (child.exitCode !== null) throw new Error(`${service} exited with ${child.exitCode}`);
      return stdout.includes("ready");
    }, 60_000);
    return /ready (\S+)/.exec(stdout)?.[1] ?? "";
  }

  async function http(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    try {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { "api-key": apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(20_000),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    } catch (err) {
      return { status: 0, body: String(err) };
    }
  }

  /** A merchant's call: again while `merchantRetries` says so, until it succeeds; any other answer fails the test. */
  async function retried<T = unknown>(method: string, path: string, body: unknown, attempts: { failed: number }): Promise<T> {
    const deadline = Date.now() + OUTAGE_MS + CONVERGENCE_MS;
    for (;;) {
      const answer = await http(method, path, body);
      if (answer.status === 200) return answer.body as T;
      // As a merchant does: again after no answer, a 5xx or a 409 transfer_in_progress (an earlier
      // try, whose answer came too late, still holds the transfer).
      if (!merchantRetries(answer.status, JSON.stringify(answer.body))) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      attempts.failed++;
      if (Date.now() > deadline) throw new Error(`${method} ${path} still failing: ${answer.status} ${JSON.stringify(answer.body)}`);
      await sleep(500);
    }
  }

  it("settles every transfer the provider made, tells every event, dead-letters none, and payrail check is clean within 60 s", async () => {
    // 30 checkouts with a pending transfer each, before the outage.
    const pending: { checkoutId: string; transactionUuid: string }[] = [];
    for (let i = 0; i < TRANSFERS; i += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, TRANSFERS - i) }, async () => {
          const { id } = await linkedCheckoutOverRpc(client, merchant);
          const token = await retried<{ transaction_uuid: string }>("POST", "/api/merchants/payment_preprocess/get_processor_token", { checkout_id: id }, { failed: 0 });
          pending.push({ checkoutId: id, transactionUuid: token.transaction_uuid });
        }),
      );
    }

    // Settlements one after another; the store goes away once SETTLED_BEFORE_OUTAGE are in, the rest are retried through it.
    const attempts = { failed: 0 };
    let cutAt = 0;
    let restoredAt = 0;
    let settled = 0;
    const outage = (async () => {
      await until("the first settlements", () => settled >= SETTLED_BEFORE_OUTAGE, 60_000);
      await proxy.cut();
      cutAt = Date.now();
      await sleep(OUTAGE_MS);
      await proxy.restore();
      restoredAt = Date.now();
    })();
    const settle = async (t: { transactionUuid: string }) => {
      await retried("POST", `/api/sandbox/transfers/${t.transactionUuid}/simulate`, { status: "completed" }, attempts);
      settled++;
    };
    // Three workers in parallel: some settlements are in flight when the store goes.
    const queue = [...pending];
    await Promise.all([0, 1, 2].map(async () => {
      for (let t = queue.shift(); t; t = queue.shift()) await settle(t);
    }));
    await outage;
    expect(attempts.failed, "calls failed during the outage").toBeGreaterThan(0);

    // After recovery: every checkout paid, every transaction.completed in the events API, no dead letter, check clean.
    const paid = new Set<string>();
    await until("every checkout paid", async () => {
      for (const t of pending) {
        if (paid.has(t.checkoutId)) continue;
        const c = await http("GET", `/api/merchants/checkout/${t.checkoutId}`);
        if (c.status === 200 && (c.body as { status: string }).status === "paid") paid.add(t.checkoutId);
      }
      return paid.size === TRANSFERS;
    }, CONVERGENCE_MS);
    const told = new Set<string>();
    await until("every transaction.completed in the events API", async () => {
      told.clear();
      let after = "";
      for (;;) {
        const page = await http("GET", `/api/merchants/events?type=transaction.completed&limit=100${after ? `&starting_after=${after}` : ""}`);
        if (page.status !== 200) return false;
        const body = page.body as EventPage;
        for (const e of body.data) told.add(e.data.object.transaction_uuid);
        if (!body.has_more) break;
        after = body.data.at(-1)!.id;
      }
      return pending.every((t) => told.has(t.transactionUuid));
    }, CONVERGENCE_MS);
    let divergences: unknown[] = [];
    await until("payrail check clean", async () => (divergences = await checkConsistency(store, { graceMs: 0 })).length === 0, CONVERGENCE_MS).catch(
      (err: Error) => {
        throw new Error(`${err.message}: ${JSON.stringify(divergences.slice(0, 5))}`);
      },
    );
    // How soon (the waits above give up after CONVERGENCE_MS) is bench/recovery.bench.ts's to measure.
    const convergedMs = Date.now() - restoredAt;
    expect(await (await createEventDeadLetters(store)).list({ status: "dead" })).toEqual([]);
    // Read by bench/recovery.bench.ts: the store away outageMs after that many settlements, every service agreeing convergedMs after it came back.
    console.log(`store-outage: ${JSON.stringify({ outageMs: restoredAt - cutAt, settledBefore: SETTLED_BEFORE_OUTAGE, failedCalls: attempts.failed, convergedMs })}`);

    // Every service agrees, as the CLI reports it.
    const cli = await payrailCheck({ MONGODB_URL: mongo.url!, MONGODB_DB: dbName });
    expect(cli.stdout).toContain("no divergence");
    expect(cli.code).toBe(0);
  }, 240_000);
});

/** The events API's page, as far as this test reads it. */
interface EventPage {
  data: { id: string; data: { object: { transaction_uuid: string } } }[];
  has_more: boolean;
}

function payrailCheck(extra: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env["AMQP_URL"];
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "bin/payrail.ts", "check", "--grace", "0"], { env, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: stdout + stderr });
    });
  });
}
