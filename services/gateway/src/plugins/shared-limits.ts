import { createHash } from "node:crypto";
import { ANONYMOUS, reserveRequestsOp } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { Logger } from "@payrail/runtime";
import { Counter, type Registry } from "prom-client";
import { SharedWindows, type Reserve } from "./shared-windows.ts";

/**
 * How long a reservation may take before its window counts in this gateway only: short, since
 * until then a busy key counts on one block of credit (docs/decisions/0049-shared-request-limits.md).
 */
const RESERVE_TIMEOUT_MS = 2_000;

/** Makes the windows of one limit whose budget every gateway draws from the counters in identity's store. */
export type SharedLimits = (limit: number, windowMs: number, namespace: string) => SharedWindows;

/**
 * The shared limits of this gateway (SHARED_LIMITS): reservations through identity's Reserve
 * Requests, on the key hashed with its namespace (no client address or credential leaves the
 * gateway), and a counter of the reservations that failed, whose windows counted here only.
 */
export function sharedLimits(transport: Transport, logger: Logger, registry: Registry): SharedLimits {
  const unshared = new Counter({
    name: "payrail_rate_limit_unshared_total",
    help: "Reservations of shared request limits that failed (store or broker unreachable): their windows counted in this gateway only",
    registers: [registry],
  });
  const onUnreachable = (err: unknown, first: boolean) => {
    unshared.inc();
    // Once per outage (a backoff's worth), not once per key.
    if (first) logger.warn({ err }, "shared request limits unreachable: counting in this gateway only until they answer");
  };
  const ctx = { requestId: "shared-limits", principal: ANONYMOUS };
  return (limit, windowMs, namespace) => {
    const reserve: Reserve = (key, windowStart, count) =>
      transport.call(
        reserveRequestsOp,
        { key: createHash("sha256").update(`${namespace}\n${key}`).digest("base64url"), window_start: windowStart, window_ms: windowMs, limit, count },
        ctx,
        { timeoutMs: RESERVE_TIMEOUT_MS },
      );
    return new SharedWindows(limit, windowMs, reserve, onUnreachable);
  };
}
