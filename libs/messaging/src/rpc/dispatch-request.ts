import { AppError, appErrorFromIssues, RpcReplyEnvelope, RpcRequestEnvelope, type Principal } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import type { ExpiredRequests } from "./expired-requests.ts";
import type { HandlerTable } from "./handler-table.ts";
import type { HandlerEntry } from "../transport.port.ts";
import type { ReplyLedger } from "./reply-ledger.port.ts";
import { runOnce } from "./run-once.ts";
import { hasRpcObservers, recordRpc } from "./rpc-observer.ts";
import { serviceUnavailable } from "./rpc-errors.ts";

/** Why the sender may not send `principal` to `pattern` (and who it is), or undefined when it may. */
export type Refusal = (principal: Principal, pattern: string) => { reason: string; sender: string | undefined } | undefined;

const INTERNAL_ERROR: RpcReplyEnvelope = { ok: false, error: { code: "internal_error", message: "Internal error" } };

/**
 * Runs one decoded request message against a service's handler table and returns the reply
 * to send. Never throws: a malformed envelope, an unknown pattern, an invalid payload, an
 * AppError and an unexpected throw all become `{ok:false}` replies. Unexpected throws are
 * logged here with their stack; the wire only ever sees a generic `internal_error`.
 *
 * Resolves `null` (send no reply) for a request whose `deadline` has passed: its caller has
 * already timed out, so the handler is not run and the request is only counted in `expired`.
 * No timeout reply either: the caller's own timer answers it `service_timeout` at the same
 * moment, and when a service is behind, replies nobody reads would only add to its load.
 *
 * `refusal` is the transport's word on whether the sender may speak for the envelope's principal
 * to this operation (see `TrustedSenders`); a refused request gets `permission_denied` and runs nothing.
 *
 * Shared by the RabbitMQ server and the in-process bus so both validate and map errors alike.
 */
export async function dispatchRequest(
  table: HandlerTable,
  message: unknown,
  logger: Logger,
  expired: ExpiredRequests,
  ledger?: ReplyLedger,
  refusal?: Refusal,
): Promise<RpcReplyEnvelope | null> {
  const envelope = RpcRequestEnvelope.safeParse(message);
  if (!envelope.success) {
    const issue = envelope.error.issues[0];
    // Payloads may carry secrets: log where the envelope is wrong, not what it holds.
    logger.warn({ path: dottedPath(issue?.path), issue: issue?.message }, "dropped malformed RPC request");
    return errorReply(new AppError("invalid_request", "Malformed RPC request envelope"));
  }
  return dispatchEnvelope(table, envelope.data, logger, expired, ledger, refusal);
}

/**
 * `dispatchRequest` for an envelope already known to be well formed: the in-process bus builds
 * its envelopes itself, so only the payload (the service's trust boundary) is validated.
 */
export async function dispatchEnvelope(
  table: HandlerTable,
  envelope: RpcRequestEnvelope,
  logger: Logger,
  expired: ExpiredRequests,
  ledger?: ReplyLedger,
  refusal?: Refusal,
): Promise<RpcReplyEnvelope | null> {
  const { pattern, requestId, principal, payload, deadline, callId, idempotencyKey, clientIp } = envelope;
  if (deadline !== undefined && Date.now() > deadline) {
    expired.record(pattern, requestId, Date.now() - deadline);
    return null;
  }
  const refused = refusal?.(principal, pattern);
  if (refused) {
    // A forged envelope, or a misconfigured component: say who sent what, never the payload.
    logger.warn({ pattern, requestId, sender: refused.sender ?? null, principal: principal.kind, reason: refused.reason }, "refused RPC request from an untrusted sender");
    return errorReply(new AppError("permission_denied", `This sender may not act as a ${principal.kind}`));
  }
  const entry = table.get(pattern);
  if (!entry) {
    logger.warn({ service: pattern.split(".")[0], pattern, requestId }, "dropped RPC request for an unknown operation");
    // The caller and this service disagree on the contract: a deployment fault, not the user's.
    return errorReply(new AppError("internal_error", `Unknown operation ${pattern}`));
  }
  const parsed = entry.operation.request.safeParse(payload);
  // The same mapping as the gateway's: the first bad field, with the registry's code for it.
  if (!parsed.success) return errorReply(appErrorFromIssues(parsed.error.issues));
  // Every service that handles a request logs its id (docs/api-notes.md, Requests) at debug: at info the
  // gateway's one line per request names the operations it called (docs/decisions/0017-logs-and-metrics.md).
  const handling = new Handling(logger, entry.operation.service, pattern, requestId);
  const call: HandlerCall = { entry, payload: parsed.data, requestId, principal, clientIp, deadline, handling };
  // At most once per call id / Idempotency-Key when the caller asks and a ledger is present.
  // A handler that runs once by itself, or an operation that only reads, needs the ledger only
  // for an Idempotency-Key.
  const ledgerOfCall = (entry.runsOnceItself || entry.operation.reads) && idempotencyKey === undefined ? undefined : ledger;
  // Nothing to hold once: the handler runs as it is, without runOnce's frame around it.
  if (ledgerOfCall === undefined) return runHandler(call, callId);
  try {
    return await runOnce(ledgerOfCall, { pattern, principal, payload: parsed.data, callId, idempotencyKey, deadline }, logger, (runId) => runHandler(call, runId));
  } catch (err) {
    // The ledger itself failed (its database is down): nothing ran.
    return failureReply(err, handling);
  }
}

interface HandlerCall {
  entry: HandlerEntry;
  payload: unknown;
  requestId: string;
  principal: Principal;
  clientIp: string | undefined;
  deadline: number | undefined;
  handling: Handling;
}

/** Runs the handler as run `runId` and turns its value or its throw into the reply; never throws. */
async function runHandler(call: HandlerCall, runId: string | undefined): Promise<RpcReplyEnvelope> {
  const { entry, payload, requestId, principal, clientIp, deadline, handling } = call;
  try {
    const data: unknown = await entry.handler(payload, { requestId, principal, callId: runId, clientIp, deadline });
    handling.handled("ok");
    // JSON drops `undefined`, and the reply envelope requires `data`.
    return { ok: true, data: data === undefined ? null : data };
  } catch (err) {
    return failureReply(err, handling);
  }
}

/**
 * One request being handled: when it is observed (RPC metrics) or logged at debug, how long it
 * took and how it ended. A class rather than closures made per request: the bundle keeps
 * function names (esbuild's keepNames), which costs every named closure a defineProperty.
 * Each line names the service that handled it (the transport's logger may serve several).
 */
class Handling {
  private readonly debug: boolean;
  private readonly observed: boolean;
  private readonly started: number;

  constructor(
    readonly logger: Logger,
    readonly service: string,
    readonly pattern: string,
    readonly requestId: string,
  ) {
    this.debug = logger.isLevelEnabled("debug");
    this.observed = hasRpcObservers();
    this.started = this.debug || this.observed ? performance.now() : 0;
  }

  handled(outcome: string): void {
    if (!this.debug && !this.observed) return;
    const ms = performance.now() - this.started;
    const { service, requestId, pattern } = this;
    if (this.observed) recordRpc({ side: "server", operation: pattern, outcome, seconds: ms / 1000 });
    if (this.debug) this.logger.debug({ service, requestId, pattern, outcome, ms: Math.round(ms) }, "rpc handled");
  }
}

/** A handler's throw as its reply: business errors as they are, outages 503, anything else a bare 500. */
function failureReply(err: unknown, handling: Handling): RpcReplyEnvelope {
  const { logger, service, pattern, requestId } = handling;
  if (err instanceof AppError) {
    handling.handled(err.code);
    return errorReply(err);
  }
  if (isStoreUnavailable(err)) {
    // The database is down, not the request wrong: a retryable 503 (docs/api-notes.md, Answers and errors), never a 500.
    handling.handled("service_unavailable");
    logger.warn({ err, service, pattern, requestId }, "RPC handler failed: store unavailable");
    return errorReply(serviceUnavailable("a dependency of this service is unavailable; retry shortly"));
  }
  handling.handled("internal_error");
  logger.error({ err, service, pattern, requestId }, "RPC handler failed");
  return INTERNAL_ERROR;
}

/** The reply for a message that is not even JSON (the server could not decode it). */
export function undecodableReply(): RpcReplyEnvelope {
  return errorReply(new AppError("invalid_request", "RPC request is not valid JSON"));
}

/**
 * Serialises a reply. Handler results that JSON cannot encode (BigInt, cycles) become an
 * `internal_error` reply rather than an exception in the transport.
 */
export function encodeReply(reply: RpcReplyEnvelope, logger: Logger): string {
  try {
    return JSON.stringify(reply);
  } catch (err) {
    logger.error({ err }, "RPC reply is not serialisable");
    return JSON.stringify(INTERNAL_ERROR);
  }
}

/**
 * Turns a decoded reply into the call's result: its data, or the AppError it carries.
 * A reply that is not a valid envelope is a fault of the server, reported as `internal_error`.
 */
export function settleReply(message: unknown, onReplayed?: () => void): unknown {
  const reply = RpcReplyEnvelope.safeParse(message);
  if (!reply.success) throw new AppError("internal_error", "Malformed RPC reply");
  return settleEnvelope(reply.data, onReplayed);
}

/** `settleReply` for a reply envelope built in this process (the in-process bus). */
export function settleEnvelope(reply: RpcReplyEnvelope, onReplayed?: () => void): unknown {
  if (reply.replayed) onReplayed?.();
  if (!reply.ok) throw AppError.fromPayload(reply.error);
  return reply.data;
}

function errorReply(error: AppError): RpcReplyEnvelope {
  return { ok: false, error: error.toPayload() };
}

/**
 * libs/store's StoreUnavailableError, matched by name: libs/messaging must not import libs/store.
 * A handler may wrap it, so its `cause` chain is followed (a few links, never a cycle).
 */
function isStoreUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e.name === "StoreUnavailableError") return true;
  }
  return false;
}

function dottedPath(path: readonly PropertyKey[] | undefined): string | undefined {
  return path && path.length > 0 ? path.map(String).join(".") : undefined;
}
