import { z } from "zod";
import { defineOperation } from "@payrail/contracts";
import { createAmqpTransport, type Transport } from "@payrail/messaging";
import { ConfigSchema, createLogger, type Config } from "@payrail/runtime";

/** The ceiling's one RPC: the service answers with what it got. */
export const echoOp = defineOperation("bench.echo", z.object({ n: z.number() }), z.object({ n: z.number() }));

/** A fixed prefix: reruns reuse one durable queue instead of leaving a new one behind. */
export const ECHO_QUEUE_PREFIX = "payrail-bench-http.";

/** Both ceiling processes: the environment's settings and a RabbitMQ transport as the services make one. */
export async function echoTransport(): Promise<{ config: Config; transport: Transport }> {
  const config = ConfigSchema.parse(process.env);
  if (!config.AMQP_URL) throw new Error("AMQP_URL is required");
  const transport = await createAmqpTransport({
    url: config.AMQP_URL,
    logger: createLogger({ level: config.LOG_LEVEL }),
    prefetch: config.RPC_PREFETCH,
    defaultTimeoutMs: config.RPC_TIMEOUT_MS,
    queuePrefix: ECHO_QUEUE_PREFIX,
  });
  return { config, transport };
}
