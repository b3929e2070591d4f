import type { Operation, ParsedRequestOf, Principal, RequestOf, ResponseOf } from "@payrail/contracts";
import type { EventStats, EventTransport } from "./events.port.ts";
import type { EventStores } from "./events/event-stores.port.ts";
import type { JsonText } from "./rpc/json-text.ts";
import type { ReplyLedger } from "./rpc/reply-ledger.port.ts";

/** What a handler knows about the call besides its payload. */
export interface CallContext {
  requestId: string;
  principal: Principal;
  /**
   * The call's id when it asked to run at most once (the same in every redelivery and retry).
   * When the reply ledger lets a repeat take over a run whose lease ran out (a dead runner, or
   * one whose event loop stalled), it is the first run's id, under an Idempotency-Key too: a
   * handler that keys its effects on it (ids derived from it, inserted once) finds the first
   * run's effect instead of making a second. A handler registered `runsOnceItself` keys its own
   * conditional write on it.
   */
  callId?: string | undefined;
  /** The client address of the HTTP request behind the call, when the gateway sent one (the audit log's `ip_address`). */
  clientIp?: string | undefined;
  /** When the caller stops waiting (epoch ms), when it said: a reply after it is never read. */
  deadline?: number | undefined;
}

/**
 * A handler for one operation: gets the payload already validated against the operation's
 * request schema. Throwing an AppError sends it back as a business-error reply; any other
 * throw is logged with its stack and answered as `internal_error` without the stack.
 */
export type Handler<O extends Operation = Operation> = (
  payload: ParsedRequestOf<O>,
  ctx: CallContext,
) => Promise<ResponseOf<O>>;

/** One entry of a service's handler table (see `handle()`). */
export interface HandlerEntry {
  operation: Operation;
  handler: Handler<any>;
  /**
   * The handler makes a repeat of a call (same `ctx.callId`) harmless and answers it as the
   * first, within its own one conditional write (a create that stores the call id on the
   * document its unique index guards), or as the state of the one record every run meets on (a
   * transfer's attempt per checkout: its result, or 409 while the first run works). The reply
   * ledger then stays out of such calls (two writes fewer), except for an Idempotency-Key,
   * whose replay and 409/400 rules only the ledger knows.
   */
  runsOnceItself?: boolean;
}

export interface CallOptions {
  /**
   * Overrides the transport's default call timeout. The request carries the moment it runs
   * out (`deadline`), and a server that only gets it later does not run it.
   */
  timeoutMs?: number;
  /**
   * Run at most once: the request carries a fresh `callId`, and a server with a reply ledger
   * answers a redelivery or a retry of it with the first run's reply. For commands.
   */
  once?: boolean;
  /**
   * Run at most once under this id (implies `once`): a caller that repeats a call itself
   * (after a crash, from a job table) names the repeat with the first call's id.
   */
  callId?: string;
  /** The HTTP request's `Idempotency-Key` (docs/api-notes.md, Requests); the server scopes it to the principal. */
  idempotencyKey?: string | undefined;
  /** Called when the reply is the stored one of an earlier request with the same key. */
  onReplayed?: () => void;
  /**
   * The caller only writes the reply on as JSON (an HTTP response body): a transport that got
   * the reply as JSON text (RabbitMQ) may answer a `JsonText` of the data instead of parsing it.
   * The in-process bus answers the value itself.
   */
  asJsonText?: boolean;
}

/** What a transport's servers, publishers and subscribers have counted since it was created. */
export interface TransportStats {
  /** Requests skipped unhandled because their caller's deadline had passed on arrival. */
  expiredRequests: number;
  /** Domain events published, consumed, retried and dead-lettered, by type. */
  events: EventStats;
}

/**
 * The transport shared by the RabbitMQ implementation and the in-process bus: RPC, and domain
 * events (`EventTransport`). Both serialise messages to JSON, so a handler behaves the same on
 * either.
 */
export interface Transport extends EventTransport {
  /**
   * Sends a request to the operation's service and resolves with the reply's data. Rejects
   * with an AppError: the handler's business error, `service_timeout` when no reply came in
   * time, `service_unavailable` when the broker (or, in-process, the service) is absent.
   */
  call<O extends Operation>(operation: O, payload: RequestOf<O>, ctx: CallContext, options: CallOptions & { asJsonText: true }): Promise<ResponseOf<O> | JsonText>;
  call<O extends Operation>(operation: O, payload: RequestOf<O>, ctx: CallContext, options?: CallOptions): Promise<ResponseOf<O>>;
  /** Starts consuming the service's queue with these handlers (all of one service). */
  serve(service: string, entries: HandlerEntry[]): Promise<void>;
  /**
   * Where this transport's servers remember the requests that ask to run at most once (a
   * `callId` or an `Idempotency-Key`; see `ReplyLedger`; the in-process bus, which never
   * delivers a call twice, only those that can come again). Without one, every request runs.
   * Set before `serve`, by the composition root that owns the store.
   */
  useReplyLedger(ledger: ReplyLedger): void;
  /**
   * Where this transport's subscribers record dead letters (and, in-process, keep queued events
   * across a crash; see `EventStores`). Without it, dead letters stay in the broker's
   * `<service>.events.dead` queue (in-process: in memory). Call before `subscribe`, by the
   * composition root that owns the store.
   */
  useEventStores(stores: EventStores): Promise<void>;
  /**
   * Drains the serving side: stops taking requests and events (RabbitMQ: cancels the consumers,
   * so what is queued waits for another replica; in-process there is no other replica, and the
   * services stay reachable for the process's own workers), and resolves once the handlers
   * running now have finished, or after `graceMs`. Calls, publishes and the rest stay open
   * (workers and relays still use them) until `close()`.
   */
  stopServing(graceMs: number): Promise<void>;
  /** True while the transport can deliver calls (broker connected). */
  isReady(): boolean;
  /** Counters of the serving, publishing and subscribing sides (read by metrics; cheap to call). */
  stats(): TransportStats;
  close(): Promise<void>;
}

/** Typed helper to build a handler table entry. */
export function handle<O extends Operation>(operation: O, handler: Handler<O>, options: { runsOnceItself?: boolean } = {}): HandlerEntry {
  return { operation, handler: handler as Handler<any>, ...(options.runsOnceItself ? { runsOnceItself: true } : {}) };
}
