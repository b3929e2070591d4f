import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { connect, type Channel } from "amqplib";
import type { DeadLetteredEvent } from "../../src/index.ts";
import { EVENT_HEADERS, EVENTS_EXCHANGE, eventQueuesOf } from "../../src/amqp/event-topology.ts";
import { RETRY_DEFAULTS, retrySteps, type RetryPolicy } from "../../src/events/retry-policy.ts";

const run = promisify(execFile);

/** A queue prefix no other test (or test file running in parallel, or run beside this one) uses. */
export { testQueuePrefix as randomQueuePrefix } from "../../src/testing/amqp-test-url.ts";

/** Runs `fn` with a raw channel on its own short-lived connection (the tests' back door). */
export async function withRawChannel<T>(url: string, fn: (channel: Channel) => Promise<T>): Promise<T> {
  const model = await connect(url, { noDelay: true });
  try {
    const channel = await model.createChannel();
    return await fn(channel);
  } finally {
    await model.close().catch(() => undefined);
  }
}

/** Deletes the durable queues a test's servers declared (they would outlive the test). */
export async function deleteQueues(url: string, queues: string[]): Promise<void> {
  await withRawChannel(url, async (channel) => {
    for (const queue of queues) await channel.deleteQueue(queue);
  });
}

/**
 * Deletes what subscribing `services` declared under `prefix`: their main and dead queues, the
 * retry tiers of the default policy and of `policies`, and the exchange.
 */
export async function deleteEventTopology(url: string, prefix: string, services: string[], policies: Partial<RetryPolicy>[] = []): Promise<void> {
  const steps = new Set([RETRY_DEFAULTS, ...policies].flatMap((p) => retrySteps({ ...RETRY_DEFAULTS, ...p })));
  await deleteQueues(
    url,
    services.flatMap((service) => {
      const queues = eventQueuesOf(prefix, service);
      return [queues.main, queues.dead, ...[...steps].map((step) => queues.retry(step))];
    }),
  );
  await withRawChannel(url, (channel) => channel.deleteExchange(`${prefix}${EVENTS_EXCHANGE}`));
}

/** The messages in a service's dead-letter queue, left in it (read unacked, requeued on close). */
export async function readDeadLetters(url: string, prefix: string, service: string): Promise<DeadLetteredEvent[]> {
  return withRawChannel(url, async (channel) => {
    const letters: DeadLetteredEvent[] = [];
    for (let m = await channel.get(eventQueuesOf(prefix, service).dead); m; m = await channel.get(eventQueuesOf(prefix, service).dead)) {
      const { messageId, type, headers = {} } = m.properties;
      letters.push({ id: messageId, type, reason: String(headers[EVENT_HEADERS.error]), attempts: Number(headers[EVENT_HEADERS.attempt] ?? 1), body: m.content.toString("utf8") });
    }
    return letters;
  });
}

/** True when `rabbitmqctl` can reach the local node (needed to force-close connections). */
export async function rabbitmqctlWorks(): Promise<boolean> {
  return run("rabbitmqctl", ["-q", "status"]).then(
    () => true,
    () => false,
  );
}

/**
 * Force-closes, with reason "test", the broker connections whose name contains `fragment`:
 * what `rabbitmqctl close_all_connections "test"` does, but limited to this test's own
 * connections so that suites running in parallel on the same broker are left alone.
 */
export async function closeConnectionsNamed(fragment: string): Promise<number> {
  const [closed] = await closeConnectionsInOrder([fragment]);
  return closed ?? 0;
}

/**
 * `closeConnectionsNamed` for several fragments, one after another, from one listing: each
 * rabbitmqctl run starts an Erlang VM (seconds on a loaded machine), so the closes follow each
 * other as closely as one run allows. Answers how many connections each fragment closed.
 */
export async function closeConnectionsInOrder(fragments: string[]): Promise<number[]> {
  const { stdout } = await run("rabbitmqctl", ["-q", "list_connections", "--no-table-headers", "pid", "client_properties"]);
  const named = stdout.split("\n").filter((line) => line.includes(`{"connection_name","`));
  const closed: number[] = [];
  for (const fragment of fragments) {
    const pids = named
      .filter((line) => line.includes(fragment))
      .map((line) => line.split("\t")[0] ?? "")
      .filter((pid) => pid.startsWith("<"));
    await Promise.all(pids.map((pid) => run("rabbitmqctl", ["-q", "close_connection", pid, "test"])));
    closed.push(pids.length);
  }
  return closed;
}
