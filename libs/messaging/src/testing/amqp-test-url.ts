import { randomBytes } from "node:crypto";

/** A broker for RabbitMQ test suites, or the reason there is none. */
export type AmqpTestBroker =
  | { url: string; skipReason?: undefined; stop(): Promise<void> }
  | { url?: undefined; skipReason: string; stop(): Promise<void> };

const RABBITMQ_IMAGE = "rabbitmq:3.13-alpine";

/**
 * Finds the broker a RabbitMQ suite runs against:
 * 1. `AMQP_URL` when set (CI, a local broker, docker compose);
 * 2. else, with `REQUIRE_INFRA=1`, throws, so the suite fails instead of silently skipping;
 * 3. else a throwaway testcontainers broker when a container engine is reachable;
 * 4. else none: `skipReason` says why (also printed) and the suite should skip.
 *
 * Call it once per test file at top level and `stop()` it in `afterAll`.
 */
export async function amqpTestUrl(): Promise<AmqpTestBroker> {
  const fromEnv = process.env["AMQP_URL"];
  if (fromEnv) return { url: fromEnv, stop: async () => undefined };
  if (process.env["REQUIRE_INFRA"] === "1") {
    throw new Error("REQUIRE_INFRA=1 but AMQP_URL is not set: RabbitMQ suites cannot run");
  }
  try {
    // Imported lazily: testcontainers is a root devDependency and only tests get here.
    const { RabbitMQContainer } = await import("@testcontainers/rabbitmq");
    const container = await new RabbitMQContainer(RABBITMQ_IMAGE).start();
    return { url: container.getAmqpUrl(), stop: async () => void (await container.stop()) };
  } catch (err) {
    const skipReason = `RabbitMQ suites skipped: AMQP_URL is unset and testcontainers failed (${(err as Error).message})`;
    console.warn(skipReason);
    return { skipReason, stop: async () => undefined };
  }
}

/** Names the test run a process belongs to: the global set-up sets it to its own process id, and the workers inherit it. */
export const TEST_RUN_VARIABLE = "PAYRAIL_TEST_RUN";

/**
 * A queue prefix no other suite uses (each transport's queues and events exchange start with
 * it), naming the run it belongs to: `test-r<run>-<random>.`. Two runs share one broker (two
 * clones' CI side by side); the name tells the other run's clean-up that this run still lives.
 */
export function testQueuePrefix(): string {
  const run = process.env[TEST_RUN_VARIABLE];
  return `test-${run ? `r${run}-` : ""}${randomBytes(4).toString("hex")}.`;
}

/** The run a queue belongs to (testQueuePrefix), when its name says, and the process of that run is alive on this machine. */
function ownedByLiveRun(queue: string): boolean {
  const run = /^test-r(\d+)-/.exec(queue);
  if (!run) return false;
  try {
    process.kill(Number(run[1]), 0);
    return true;
  } catch (err) {
    // EPERM: the process exists, under another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The queues of a `rabbitmqctl list_queues name consumers messages` listing that runs left behind:
 * named with `prefix`, idle (no consumer, no message), and not of a run still going.
 */
export function leftoverTestQueues(listing: string, prefix = "test-"): string[] {
  return listing
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([name, consumers, messages]) => name?.startsWith(prefix) && consumers === "0" && messages === "0" && !ownedByLiveRun(name))
    .map(([name]) => name!);
}

/**
 * Deletes the queues earlier test runs left on a shared broker (names starting with `prefix`):
 * suites give every queue a prefix of their own and do not delete them, and tens of thousands
 * of idle queues slow the broker and its tools down for every later run. Lists them with
 * `rabbitmqctl` (absent: nothing is done) and deletes them over AMQP. Only idle queues go (no
 * consumer, no message, and the broker's own if-empty/if-unused check at deletion), and never
 * one of a run still going (testQueuePrefix): a run beside this one has idle queues of its own
 * while it works (a service stopped and started again, a durable queue between two tests).
 */
export async function deleteLeftoverTestQueues(url: string, prefix = "test-"): Promise<number> {
  const { execFile } = await import("node:child_process");
  const { promisify } = await import("node:util");
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)("rabbitmqctl", ["-q", "--no-table-headers", "list_queues", "name", "consumers", "messages"], { maxBuffer: 256 * 1024 * 1024, timeout: 120_000 }));
  } catch {
    return 0;
  }
  const names = leftoverTestQueues(stdout, prefix);
  if (names.length === 0) return 0;
  const amqp = await import("amqplib");
  const connection = await amqp.connect(url);
  let deleted = 0;
  try {
    // A refused delete closes the channel with an error event; it is expected, not a failure.
    const openChannel = async () => (await connection.createChannel()).on("error", () => undefined);
    let channel = await openChannel();
    for (const name of names) {
      try {
        await channel.deleteQueue(name, { ifUnused: true, ifEmpty: true });
        deleted += 1;
      } catch {
        // In use again since the listing: the broker refused and closed the channel; it stays.
        channel = await openChannel();
      }
    }
    await channel.close().catch(() => undefined);
  } finally {
    await connection.close();
  }
  return deleted;
}
