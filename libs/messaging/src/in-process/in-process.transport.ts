import type { Logger } from "@payrail/runtime";
import { dispatchEnvelope } from "../rpc/dispatch-request.ts";
import { requestEnvelope } from "../rpc/encode-request.ts";
import { ExpiredRequests } from "../rpc/expired-requests.ts";
import { createHandlerTable } from "../rpc/handler-table.ts";
import { InFlight } from "../rpc/in-flight.ts";
import { serviceUnavailable } from "../rpc/rpc-errors.ts";
import type { ReplyLedger } from "../rpc/reply-ledger.port.ts";
import type { Transport } from "../transport.port.ts";
import { InProcessBus, type InProcessServer } from "./in-process.bus.ts";
import { InProcessCall } from "./in-process.call.ts";
import { InProcessEvents } from "./in-process-events.ts";
import type { RetryPolicy } from "../events/retry-policy.ts";

export interface InProcessTransportOptions {
  logger: Logger;
  /** Call timeout when the call does not set one. Default 10 s. */
  defaultTimeoutMs?: number;
  /** Shared with the other transports of the process; default: a private bus. */
  bus?: InProcessBus;
  /** How long `close()` waits for running handlers (RPC and events). Default 5 s. */
  closeGraceMs?: number;
  /** Backoff and retry window of failed events for every subscription (EVENT_RETRY_HOURS); a subscribe() may override. */
  eventRetry?: Partial<RetryPolicy> | undefined;
  /** With durable queues: how long a publish waits for a service to handle an event before a copy is kept (handoff.ts). */
  handoffWaitMs?: number | undefined;
}

/**
 * The transport for one-process (embedded) mode. Requests and replies are handed over as
 * objects, not JSON: both envelopes are built by this transport and the dispatcher, so only the
 * payload is validated (by the operation's schema, which also copies every object it declares,
 * so the handler never shares the caller's objects), and the reply is the handler's own value.
 * Deadlines, timeouts and error mapping are those of the RabbitMQ transport, and the handler
 * still runs on a later turn of the event loop. A request is handed over once and never sent
 * again, so the reply ledger sees only the calls that can come again under the same key: those
 * with the caller's own `callId` or an Idempotency-Key. Events go through JSON (`InProcessEvents`):
 * asynchronous, at least once, retried and dead-lettered alike.
 */
export function createInProcessTransport(options: InProcessTransportOptions): Transport {
  const { logger, defaultTimeoutMs = 10_000, closeGraceMs = 5_000 } = options;
  const bus = options.bus ?? new InProcessBus();
  const servers: InProcessServer[] = [];
  const running = new InFlight();
  const expired = new ExpiredRequests(logger);
  const pending = new Set<InProcessCall>();
  const events = new InProcessEvents(bus, logger, options.eventRetry, options.handoffWaitMs);
  let closed = false;
  let ledger: ReplyLedger | undefined;

  return {
    // Not async: a promise returned from an async function costs two more turns to adopt.
    call(operation, payload, ctx, callOptions) {
      if (closed) return Promise.reject(serviceUnavailable("transport is closed"));
      const server = bus.pick(operation.service);
      if (!server) return Promise.reject(serviceUnavailable(`service ${operation.service} is not running`));
      const timeoutMs = callOptions?.timeoutMs ?? defaultTimeoutMs;
      const envelope = requestEnvelope(operation, payload, ctx, timeoutMs, callOptions);
      // This bus hands a request over exactly once and never sends it again, so a call id this
      // call drew for itself can meet no repeat: only a caller's own call id (it repeats calls
      // itself) or an Idempotency-Key (another HTTP request may carry it) needs the reply ledger.
      const mayRepeat = callOptions?.callId !== undefined || callOptions?.idempotencyKey !== undefined;
      const call = new InProcessCall(operation.pattern, timeoutMs, callOptions?.onReplayed, pending);
      server.run(envelope, mayRepeat).then(
        (reply) => call.replied(reply),
        (err: Error) => call.fail(err),
      );
      return call.promise as never;
    },

    async serve(service, entries) {
      if (closed) throw new Error("transport is closed");
      const table = createHandlerTable(service, entries);
      const server: InProcessServer = {
        service,
        table,
        run: async (message, mayRepeat) => {
          await null; // never run the handler inside call(), as over a broker
          return running.track(dispatchEnvelope(table, message, logger, expired, mayRepeat ? ledger : undefined));
        },
      };
      servers.push(server);
      bus.add(server);
    },

    async publish(event) {
      if (closed) throw serviceUnavailable("transport is closed");
      await events.publish(event);
    },

    async subscribe(service, patterns, handler, subscribeOptions) {
      if (closed) throw new Error("transport is closed");
      await events.subscribe(service, patterns, handler, subscribeOptions);
    },

    useReplyLedger(l) {
      ledger = l;
    },

    useEventStores: (stores) => bus.useEventStores(stores),

    async stopServing(graceMs) {
      // The services stay reachable: in one process the only callers left once the gateway
      // closed are this process's own workers, which may still need them until close().
      await running.drain(graceMs);
    },

    isReady: () => !closed,

    stats: () => ({ expiredRequests: expired.count, events: events.stats() }),

    async close() {
      if (closed) return;
      closed = true;
      for (const server of servers.splice(0)) bus.remove(server);
      for (const call of [...pending]) call.fail(serviceUnavailable("transport is closed"));
      await Promise.all([running.drain(closeGraceMs), events.close(closeGraceMs)]);
    },
  };
}

