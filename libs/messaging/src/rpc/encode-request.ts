import type { Operation } from "@payrail/contracts";
import { randomUUID } from "node:crypto";
import type { CallContext, CallOptions } from "../transport.port.ts";

/**
 * The request envelope as sent by both transports' clients. `deadline` is the moment the
 * caller's timeout fires: a server that gets the request later skips it (see `dispatchRequest`).
 * Epoch ms, so it compares across processes; that assumes hosts' clocks agree to within a small
 * part of a call timeout (NTP keeps them within milliseconds).
 */
export function encodeRequest(operation: Operation, payload: unknown, ctx: CallContext, timeoutMs: number, options: CallOptions = {}): string {
  return JSON.stringify({
    pattern: operation.pattern,
    requestId: ctx.requestId,
    principal: ctx.principal,
    payload,
    deadline: Date.now() + timeoutMs,
    // Encoded once per call: a retry resends these same bytes, so the same call id.
    callId: options.callId ?? (options.once || options.idempotencyKey !== undefined ? randomUUID() : undefined),
    idempotencyKey: options.idempotencyKey,
  });
}
