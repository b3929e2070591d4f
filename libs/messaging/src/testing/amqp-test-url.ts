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
