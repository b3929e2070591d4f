import type { Logger } from "@payrail/runtime";
import { createAmqpTransport, type AmqpTransportOptions } from "./amqp/amqp.transport.ts";
import type { InProcessBus } from "./in-process/in-process.bus.ts";
import { createInProcessTransport } from "./in-process/in-process.transport.ts";
import type { Transport } from "./transport.port.ts";

export * from "./transport.port.ts";
export * from "./events.port.ts";
export { JsonText } from "./rpc/json-text.ts";
export type { LedgerHolder, ReplyLedger } from "./rpc/reply-ledger.port.ts";
export { CALL_ID_TTL_MS, IDEMPOTENCY_KEY_TTL_MS, LEASE_MS, requestFingerprint } from "./rpc/run-once.ts";
export { observeRpc, type RpcObserver, type RpcSample } from "./rpc/rpc-observer.ts";
export type { TrustedSenders } from "./rpc/trusted-senders.ts";
export { readinessProbe, SLOW_GRACE_MS, type ReadinessChecks } from "./rpc/readiness.ts";
export { SUBSCRIBE_DEFAULTS } from "./events/subscription.ts";
export { EventCannotApply, cannotApply } from "./events/event-cannot-apply.ts";
export { RETRY_DEFAULTS, retrySteps, type RetryPolicy } from "./events/retry-policy.ts";
export type { DeadLetterRecord, DurableEventQueues, EventDeadLetterStore, EventStores, StoredDelivery } from "./events/event-stores.port.ts";
export { deadLetter, type DeadLetterCause } from "./events/handle-event.ts";
export { createAmqpTransport, type AmqpTransportOptions } from "./amqp/amqp.transport.ts";
export type { ReplyMode } from "./amqp/amqp-rpc.client.ts";
export { createInProcessTransport, type InProcessTransportOptions } from "./in-process/in-process.transport.ts";
export { createInProcessBus, InProcessBus } from "./in-process/in-process.bus.ts";

export interface TransportOptions extends Omit<AmqpTransportOptions, "url"> {
  /** RabbitMQ URL; without one the process runs all its services on the in-process bus. */
  amqpUrl?: string | undefined;
  logger: Logger;
  /** In-process mode only: the bus to share with other transports of the process. */
  bus?: InProcessBus;
}

/** RabbitMQ when an `amqpUrl` is given, else the in-process bus (one-process mode). */
export async function createTransport(options: TransportOptions): Promise<Transport> {
  const { amqpUrl, bus, ...rest } = options;
  if (amqpUrl) return createAmqpTransport({ ...rest, url: amqpUrl });
  const { logger, defaultTimeoutMs, closeGraceMs, eventRetry } = rest;
  return createInProcessTransport({ logger, bus, defaultTimeoutMs, closeGraceMs, eventRetry });
}
