import { timedCall } from "../rpc/rpc-observer.ts";
import { rpcQueueOf } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import { EventCounters } from "../events/event-counters.ts";
import type { RetryPolicy } from "../events/retry-policy.ts";
import { createSubscription } from "../events/subscription.ts";
import { serviceUnavailable } from "../rpc/rpc-errors.ts";
import type { Transport } from "../transport.port.ts";
import { AmqpConnection } from "./amqp-connection.ts";
import { AmqpEventPublisher } from "./amqp-event.publisher.ts";
import { AmqpEventSubscriber } from "./amqp-event.subscriber.ts";
import { AmqpRpcClient, type ReplyMode } from "./amqp-rpc.client.ts";
import { AmqpRpcServer } from "./amqp-rpc.server.ts";
import { EVENTS_EXCHANGE } from "./event-topology.ts";
import { RPC_EXCHANGE } from "./rpc-topology.ts";
import type { TrustedSenders } from "../rpc/trusted-senders.ts";

export interface AmqpTransportOptions {
  /** e.g. `amqp://guest:guest@rabbitmq:5672`. */
  url: string;
  logger: Logger;
  /** Unacked requests a consumer may hold at once. Default 200. */
  prefetch?: number;
  /** Call timeout when the call does not set one, and how long a publish waits for its confirm. Default 10 s. */
  defaultTimeoutMs?: number;
  /** Prepended to every queue name and the events exchange (tests use a random one to stay apart). Default "". */
  queuePrefix?: string;
  /** How replies come back (see `ReplyMode`). Default "exclusive-queue", measured faster. */
  replyMode?: ReplyMode;
  /** The connection's name in the broker's connection list. */
  connectionName?: string;
  /** Gives up one connection attempt after this long. Default 5 s. */
  connectTimeoutMs?: number;
  /** How long `close()` waits for running handlers. Default 5 s. */
  closeGraceMs?: number;
  /**
   * Which broker users may send merchant, consumer, admin and service principals (see
   * `TrustedSenders`), and whose events are accepted (each type from its owning service's
   * users, `events/event-senders.ts`); unset: all.
   */
  trustedSenders?: TrustedSenders | undefined;
  /** Backoff and retry window of failed events for every subscription (EVENT_RETRY_HOURS); a subscribe() may override. */
  eventRetry?: Partial<RetryPolicy> | undefined;
}

/**
 * RPC over RabbitMQ. Topology:
 *
 *   caller ──publish(direct exchange "payrail.rpc", key "<prefix><service>.rpc", mandatory,
 *            correlationId, replyTo, expiration = timeout)──▶ durable queue "<prefix><service>.rpc"
 *            (bound by its servers; not the default exchange, see rpc-topology.ts)
 *   queue ──▶ one consumer per serving instance (manual ack, prefetch) ── handler ──▶
 *            publish(default exchange, key = replyTo, correlationId) ──▶ caller's reply queue,
 *            then ack the request
 *
 * The request envelope carries `deadline` (epoch ms, = send time + timeout); a server that
 * receives it later acks it without running the handler or replying, and counts it (`stats()`).
 *
 * Only servers declare service queues and the exchange, so an unroutable (returned) request
 * means the service was never started → `service_unavailable`. One connection per transport carries both sides.
 *
 * Domain events (see `AmqpEventPublisher`, `AmqpEventSubscriber`):
 *
 *   publisher ──confirm channel, persistent, routing key = event type──▶ topic exchange
 *            "<prefix>payrail.events" ──binding per pattern──▶ durable queue "<prefix><service>.events"
 *            (one per subscribing service, shared by its replicas)
 *   queue ──▶ handler ──resolved──▶ ack
 *                     ──threw, within the retry window──▶ "<service>.events.retry.<step ms>" (one
 *                          queue per backoff step, TTL = the step, jittered expiration; then
 *                          dead-lettered back to the main queue) ──▶ ack
 *                     ──EventCannotApply, invalid, or out of retry time──▶ the dead-letter store
 *                          (`useEventStores`), else "<service>.events.dead" (reason in a header) ──▶ ack
 *
 * Resolves after the first connection attempt, whether it succeeded or not: without a broker
 * calls fail fast with `service_unavailable` while the connection keeps retrying.
 */
export async function createAmqpTransport(options: AmqpTransportOptions): Promise<Transport> {
  const { url, logger, prefetch = 200, defaultTimeoutMs = 10_000, queuePrefix = "", closeGraceMs = 5_000 } = options;
  const queueOf = (service: string) => `${queuePrefix}${rpcQueueOf(service)}`;
  const connection: AmqpConnection = new AmqpConnection({
    url,
    logger,
    name: options.connectionName ?? `payrail ${queuePrefix}pid ${process.pid}`,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    onUp: async (model) => {
      await client.attach(model);
      await server.attach(model);
      await publisher.attach(model);
      await subscriber.attach(model);
    },
    onDown: (reason) => {
      client.detach(reason);
      server.detach();
      publisher.detach();
      subscriber.detach();
    },
  });
  const recycle = (reason: string) => connection.recycle(reason);
  const retryAfterSeconds = () => connection.retryAfterSeconds();
  const userId = brokerUser(url);
  // Not prefixed: requests are routed by their (prefixed) queue name, so suites on one broker
  // stay apart anyway, and no exchange is left behind per test run (bindings go with queues).
  const rpcExchange = RPC_EXCHANGE;
  const client = new AmqpRpcClient({ logger, replyMode: options.replyMode ?? "exclusive-queue", queueOf, exchange: rpcExchange, retryAfterSeconds, recycle, userId });
  const server = new AmqpRpcServer({ logger, prefetch, queueOf, exchange: rpcExchange, recycle, trustedSenders: options.trustedSenders });
  const counters = new EventCounters();
  const exchange = `${queuePrefix}${EVENTS_EXCHANGE}`;
  const confirmTimeoutMs = defaultTimeoutMs;
  const publisher = new AmqpEventPublisher({ logger, exchange, confirmTimeoutMs, counters, retryAfterSeconds, recycle, userId });
  const subscriber = new AmqpEventSubscriber({ logger, exchange, queuePrefix, confirmTimeoutMs, counters, recycle, trustedSenders: options.trustedSenders, userId });
  let closed = false;

  await connection.start();

  return {
    async call(operation, payload, ctx, callOptions) {
      if (closed) throw serviceUnavailable("transport is closed");
      return timedCall(operation.pattern, client.call(operation, payload, ctx, callOptions?.timeoutMs ?? defaultTimeoutMs, callOptions)) as never;
    },
    async serve(service, entries) {
      if (closed) throw new Error("transport is closed");
      await server.serve(service, entries);
    },
    async publish(event) {
      if (closed) throw serviceUnavailable("transport is closed");
      await publisher.publish(event);
    },
    async subscribe(service, patterns, handler, subscribeOptions) {
      if (closed) throw new Error("transport is closed");
      await subscriber.subscribe(createSubscription(service, patterns, handler, subscribeOptions, options.eventRetry));
    },
    useReplyLedger(ledger) {
      server.ledger = ledger;
    },
    async useEventStores(stores) {
      // The broker's queues are durable already: only the dead letters move to the store.
      subscriber.deadLetters = stores.deadLetters;
    },
    async stopServing(graceMs) {
      await Promise.all([server.stop(graceMs), subscriber.stop(graceMs)]);
    },
    isReady: () => !closed && connection.isReady(),
    stats: () => ({ expiredRequests: server.expiredCount, events: counters.snapshot() }),
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([server.stop(closeGraceMs), subscriber.stop(closeGraceMs), publisher.close(closeGraceMs)]);
      client.detach("transport closed", true);
      await connection.close();
    },
  };
}

/**
 * The user a URL logs in as, when it names one. Without one (amqplib's default guest, or a
 * certificate login), no `user_id` is sent: a wrong one would make the broker close the channel.
 */
function brokerUser(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).username) || undefined;
  } catch {
    return undefined; // amqplib will refuse the URL itself, with a clearer message
  }
}
