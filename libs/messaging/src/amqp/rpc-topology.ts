import type { Channel } from "amqplib";

/**
 * The exchange every RPC request is published to (direct; routing key = the service's queue,
 * `<service>.rpc`), instead of the default exchange. RabbitMQ checks a publish's write
 * permission against the exchange only, and every queue is reachable through the default one
 * (`amq.default`) by its name: a user allowed to send requests that way could as well drop a
 * look-alike event straight into `checkout.events`. Through this exchange a request reaches
 * only what servers bound to it, so the gateway's and the CLI's broker users are given write
 * on `payrail.rpc` and nothing else (deploy/rabbitmq/definitions.json).
 */
export const RPC_EXCHANGE = "payrail.rpc";

/**
 * Declares (idempotently) a served service's durable queue, the RPC exchange, and the binding
 * between them. Only servers declare: a client needs no configure permission at all.
 */
export async function declareRpcQueue(channel: Channel, exchange: string, queue: string): Promise<void> {
  await channel.assertExchange(exchange, "direct", { durable: true });
  await channel.assertQueue(queue, { durable: true });
  await channel.bindQueue(queue, exchange, queue);
}
