/**
 * The ceiling's back end: a process serving `bench.echo` over RabbitMQ with the transport
 * and defaults the domain services use (see bin/wiring.ts openTransport).
 *   AMQP_URL=amqp://guest:guest@127.0.0.1:5672 node --import tsx bench/http/servers/echo-service.server.ts
 */
import { createAmqpTransport, handle } from "@payrail/messaging";
import { ConfigSchema, createLogger } from "@payrail/runtime";
import { ECHO_QUEUE_PREFIX, echoOp } from "./echo.op.ts";

const config = ConfigSchema.parse(process.env);
if (!config.AMQP_URL) throw new Error("AMQP_URL is required");
const logger = createLogger({ level: config.LOG_LEVEL });
const transport = await createAmqpTransport({
  url: config.AMQP_URL,
  logger,
  prefetch: config.RPC_PREFETCH,
  defaultTimeoutMs: config.RPC_TIMEOUT_MS,
  queuePrefix: ECHO_QUEUE_PREFIX,
});
await transport.serve("bench", [handle(echoOp, async ({ n }) => ({ n }))]);
console.log("echo service running");
const stop = () => void transport.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
