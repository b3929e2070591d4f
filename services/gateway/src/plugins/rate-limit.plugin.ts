import rateLimit from "@fastify/rate-limit";
import { AppError } from "@payrail/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";

export interface RateLimitOptions {
  /** Requests per minute per credential (API.md §9). */
  perMinute: number;
  /** Failed authentications (401 answers) per minute per client address before 429. */
  authFailuresPerMinute: number;
}

const WINDOW_MS = 60_000;

/** The credential a request was served under, once its route's auth hook ran; none for anonymous routes. */
function credentialKey(request: FastifyRequest): string | undefined {
  const p = request.principal;
  if (p?.kind === "merchant") return `key:${p.keyPrefix}`;
  if (p?.kind === "user") return `token:${p.tokenId ?? p.userId}`;
  return undefined;
}

function limited(message: string, retryAfter: number): AppError {
  return new AppError("rate_limited", message, { retryAfter: Math.max(1, retryAfter) });
}

/**
 * Rate limits through `@fastify/rate-limit` (fixed one-minute windows in this gateway's memory;
 * several gateways each count their own share, docs/decisions.md):
 *
 * - per credential: after the route's auth hook (`preHandler`), keyed by the api-key's prefix or
 *   the auth token's record, with the draft standard's `RateLimit-Limit/-Remaining/-Reset`
 *   headers on every authenticated answer and `Retry-After` on the 429;
 * - per client address, failed authentications: every 401 counts, and an address that used up
 *   its budget gets 429 on every `/api/` request until its window ends, before any credential
 *   is looked at, so guessing keys, tokens or codes stops at the budget.
 */
export async function registerRateLimits(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    hook: "preHandler",
    max: options.perMinute,
    timeWindow: WINDOW_MS,
    enableDraftSpec: true,
    keyGenerator: (request) => credentialKey(request) ?? "",
    allowList: (request) => credentialKey(request) === undefined,
    errorResponseBuilder: (_request, context) => limited(`too many requests; retry in ${context.after}`, Math.ceil(context.ttl / 1000)),
  });

  const failures = app.createRateLimit({
    max: options.authFailuresPerMinute,
    timeWindow: WINDOW_MS,
    keyGenerator: (request) => `auth-failures:${request.ip}`,
    // Not the credential limit's allowList (it would exempt every unauthenticated request).
    allowList: [],
  });
  app.addHook("onRequest", async (request) => {
    if (!request.url.startsWith("/api/")) return;
    const seen = await failures(request, { increment: false });
    if (!seen.isAllowed && seen.remaining === 0) {
      throw limited(`too many failed authentications from this address; retry in ${seen.ttlInSeconds} s`, seen.ttlInSeconds);
    }
  });
  app.addHook("onResponse", async (request, reply) => {
    if (reply.statusCode === 401) await failures(request);
  });
}
