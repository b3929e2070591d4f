import { timedCall } from "../rpc/rpc-observer.ts";
import type { Logger } from "@payrail/runtime";
import { dispatchEnvelope, settleEnvelope } from "../rpc/dispatch-request.ts";
import { requestEnvelope } from "../rpc/encode-request.ts";
import { ExpiredRequests } from "../rpc/expired-requests.ts";
import { createHandlerTable } from "../rpc/handler-table.ts";
import { InFlight } from "../rpc/in-flight.ts";
import { serviceTimeout, serviceUnavailable } from "../rpc/rpc-errors.ts";
import type { ReplyLedger } from "../rpc/reply-ledger.port.ts";
import type { Transport } from "../transport.port.ts";
import { InProcessBus, type InProcessServer } from "./in-process.bus.ts";
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
  const pending = new Set<(err: Error) => void>();
  const events = new InProcessEvents(bus, logger, options.eventRetry);
  let closed = false;
  let ledger: ReplyLedger | undefined;

  return {
    async call(operation, payload, ctx, callOptions) {
      if (closed) throw serviceUnavailable("transport is closed");
      const server = bus.pick(operation.service);
      if (!server) throw serviceUnavailable(`service ${operation.service} is not running`);
      const timeoutMs = callOptions?.timeoutMs ?? defaultTimeoutMs;
      const envelope = requestEnvelope(operation, payload, ctx, timeoutMs, callOptions);
      // This bus hands a request over exactly once and never sends it again, so a call id this
      // call drew for itself can meet no repeat: only a caller's own call id (it repeats calls
      // itself) or an Idempotency-Key (another HTTP request may carry it) needs the reply ledger.
      const mayRepeat = callOptions?.callId !== undefined || callOptions?.idempotencyKey !== undefined;
      return timedCall(operation.pattern, new Promise<never>((resolve, reject) => {
        const settle = (err: Error | undefined, value?: unknown) => {
          if (!pending.delete(fail)) return; // already timed out or closed: drop the late reply
          clearTimeout(timer);
          if (err) reject(err);
          else resolve(value as never);
        };
        const fail = (err: Error) => settle(err);
        pending.add(fail);
        const timer = setTimeout(() => fail(serviceTimeout(operation.pattern, timeoutMs)), timeoutMs);
        server.run(envelope, mayRepeat).then((reply) => {
          if (reply === null) return; // skipped past its deadline: the timer above answers
          try {
            settle(undefined, settleEnvelope(reply, callOptions?.onReplayed));
          } catch (err) {
            settle(err as Error);
          }
        }, fail);
      }));
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

    isReady: () => !closed,

    stats: () => ({ expiredRequests: expired.count, events: events.stats() }),

    async close() {
      if (closed) return;
      closed = true;
      for (const server of servers.splice(0)) bus.remove(server);
      for (const fail of [...pending]) fail(serviceUnavailable("transport is closed"));
      await Promise.all([running.drain(closeGraceMs), events.close(closeGraceMs)]);
    },
  };
}

