/**
 * RPC round trips per second and p50/p99 latency at 1, 16 and 64 calls in flight, over
 * RabbitMQ (direct reply-to and an exclusive reply queue) and over the in-process bus.
 *
 *   npm run bench:rpc                     # AMQP_URL defaults to the local broker
 *   BENCH_SECONDS=5 BENCH_ROUNDS=3 npm run bench:rpc
 *
 * Each (transport, in-flight) cell runs BENCH_ROUNDS times for BENCH_SECONDS, interleaved
 * with the other transports so that background load on a shared machine hits all of them
 * alike; a row sums its rounds. Client and server are separate transports (separate
 * connections) in this one process.
 */
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { defineOperation } from "@payrail/contracts";
import { silentLogger } from "@payrail/runtime";
import { createAmqpTransport, createInProcessBus, createInProcessTransport, handle, type Transport } from "@payrail/messaging";
import { percentile } from "./http/percentile.ts";

const AMQP_URL = process.env["AMQP_URL"] ?? "amqp://guest:guest@127.0.0.1:5672";
const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 2);
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 2);
const IN_FLIGHT = [1, 16, 64];
const WARMUP_MS = 300;
// A fixed prefix: reruns reuse one durable queue instead of leaving a new one behind.
const QUEUE_PREFIX = "payrail-bench.";

const echo = defineOperation("bench.echo", z.object({ n: z.number() }), z.object({ n: z.number() }));
const ctx = { requestId: "req_bench", principal: { kind: "anonymous" } } as const;

interface Sample {
  calls: number;
  ms: number;
  latencies: number[];
}

/** Keeps `inFlight` calls going for `durationMs`; returns what completed. */
async function drive(client: Transport, inFlight: number, durationMs: number): Promise<Sample> {
  const latencies: number[] = [];
  const start = performance.now();
  const deadline = start + durationMs;
  const worker = async (id: number) => {
    for (let n = id; performance.now() < deadline; n += inFlight) {
      const t0 = performance.now();
      const reply = await client.call(echo, { n }, ctx);
      latencies.push(performance.now() - t0);
      if (reply.n !== n) throw new Error(`wrong reply: ${reply.n} for ${n}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, (_, id) => worker(id)));
  return { calls: latencies.length, ms: performance.now() - start, latencies };
}

async function setUp(): Promise<{ clients: Map<string, Transport>; all: Transport[] }> {
  const logger = silentLogger();
  const handlers = [handle(echo, async ({ n }) => ({ n }))];
  const clients = new Map<string, Transport>();
  const all: Transport[] = [];

  const bus = createInProcessBus();
  const inProcessServer = createInProcessTransport({ bus, logger });
  await inProcessServer.serve("bench", handlers);
  all.push(inProcessServer);

  const amqpServer = await createAmqpTransport({ url: AMQP_URL, logger, queuePrefix: QUEUE_PREFIX });
  all.push(amqpServer);
  if (amqpServer.isReady()) {
    await amqpServer.serve("bench", handlers);
    for (const replyMode of ["direct", "exclusive-queue"] as const) {
      const client = await createAmqpTransport({ url: AMQP_URL, logger, queuePrefix: QUEUE_PREFIX, replyMode });
      all.push(client);
      clients.set(`rabbitmq, ${replyMode} replies`, client);
    }
  } else {
    console.log(`RabbitMQ rows skipped: no broker at ${AMQP_URL.replace(/\/\/[^@]*@/, "//")}`);
  }
  const inProcessClient = createInProcessTransport({ bus, logger });
  all.push(inProcessClient);
  clients.set("in-process bus", inProcessClient);
  return { clients, all };
}

async function main(): Promise<void> {
  const { clients, all } = await setUp();
  try {
    for (const client of clients.values()) await drive(client, 16, WARMUP_MS);
    const results = new Map<string, Sample>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const inFlight of IN_FLIGHT) {
        for (const [label, client] of clients) {
          const sample = await drive(client, inFlight, SECONDS * 1000);
          const key = `${label}|${inFlight}`;
          const sum = results.get(key) ?? { calls: 0, ms: 0, latencies: [] };
          results.set(key, { calls: sum.calls + sample.calls, ms: sum.ms + sample.ms, latencies: sum.latencies.concat(sample.latencies) });
        }
      }
    }
    console.log(`\nRPC round trips (${ROUNDS} x ${SECONDS}s per row, one process, ${new Date().toISOString()})`);
    console.log(`${"transport".padEnd(32)}${"in flight".padStart(10)}${"calls/s".padStart(10)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}`);
    for (const [label] of clients) {
      for (const inFlight of IN_FLIGHT) {
        const { calls, ms, latencies } = results.get(`${label}|${inFlight}`)!;
        const sorted = latencies.sort((a, b) => a - b);
        const rate = Math.round((calls / ms) * 1000);
        console.log(
          `${label.padEnd(32)}${String(inFlight).padStart(10)}${String(rate).padStart(10)}` +
            `${percentile(sorted, 50).toFixed(2).padStart(9)}${percentile(sorted, 99).toFixed(2).padStart(9)}`,
        );
      }
    }
  } finally {
    await Promise.all(all.map((t) => t.close()));
  }
}

await main();
