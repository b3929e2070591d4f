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

/**
 * Deletes the queues earlier test runs left on a shared broker (names starting with `prefix`):
 * suites give every queue a prefix of their own and do not delete them, and tens of thousands
 * of idle queues slow the broker and its tools down for every later run. Lists them with
 * `rabbitmqctl` (absent: nothing is done) and deletes them over AMQP. Only idle queues go (no
 * consumer, no message, and the broker's own if-empty/if-unused check at deletion), so a suite
 * another run on this machine is running keeps its queues.
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
  const names = stdout
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([name, consumers, messages]) => name?.startsWith(prefix) && consumers === "0" && messages === "0")
    .map(([name]) => name!);
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
