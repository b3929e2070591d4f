import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Reserve Requests: a gateway draws a block of one key's request budget for one window from
 * the counter every gateway shares (docs/decisions/0049-shared-request-limits.md). Called by
 * the gateway only, in the background (no request waits on it), about once per block. The key
 * is a hash of the gateway's own limit key, so no client address or credential is stored.
 */
export const reserveRequestsOp = defineOperation(
  "identity.reserveRequests",
  z.object({
    key: z.string().min(1).max(64),
    /** The window's start (epoch ms, a multiple of `window_ms`): every gateway names the same window. */
    window_start: z.number().int().min(0),
    window_ms: z.number().int().min(1_000).max(3_600_000),
    /** The key's budget per window. */
    limit: z.number().int().min(1),
    /** How many requests to reserve; fewer are granted when the budget has fewer left. */
    count: z.number().int().min(1),
  }),
  z.object({
    /** How many of `count` were reserved (0: the window's budget is spent). */
    granted: z.number().int().min(0),
    /** The window's reserved total across every gateway after this reservation. */
    reserved: z.number().int().min(0),
  }),
);
