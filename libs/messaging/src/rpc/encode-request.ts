import type { Operation, RpcRequestEnvelope } from "@payrail/contracts";
import { randomUUID } from "node:crypto";
import type { CallContext, CallOptions } from "../transport.port.ts";

/**
 * The request envelope as sent by both transports' clients. `deadline` is the moment the
 * caller's timeout fires: a server that gets the request later skips it (see `dispatchRequest`).
 * Epoch ms, so it compares across processes; that assumes hosts' clocks agree to within a small
 * part of a call timeout (NTP keeps them within milliseconds).
 */
/**
 * Whether a call carries a `callId` (runs at most once on a server with a reply ledger, and so
 * may be sent again after a lost connection): when the caller asks, when it carries an
 * Idempotency-Key, and for every call a service makes on its own account (its commands to
 * other services), whose repeat must not act twice.
 */
export function runsOnce(ctx: CallContext, options: CallOptions): boolean {
  return options.callId !== undefined || options.once === true || options.idempotencyKey !== undefined || ctx.principal.kind === "service";
}

export function encodeRequest(operation: Operation, payload: unknown, ctx: CallContext, timeoutMs: number, options: CallOptions = {}): string {
  return JSON.stringify(requestEnvelope(operation, payload, ctx, timeoutMs, options));
}

/** The request envelope as an object: what the in-process bus hands over without encoding it. */
export function requestEnvelope(operation: Operation, payload: unknown, ctx: CallContext, timeoutMs: number, options: CallOptions = {}): RpcRequestEnvelope {
  return {
    pattern: operation.pattern,
    requestId: ctx.requestId,
    principal: ctx.principal,
    payload,
    deadline: Date.now() + timeoutMs,
    // Encoded once per call: a retry resends these same bytes, so the same call id.
    callId: options.callId ?? (runsOnce(ctx, options) ? randomUUID() : undefined),
    idempotencyKey: options.idempotencyKey,
    clientIp: ctx.clientIp,
  };
}
