import rateLimit from "@fastify/rate-limit";
import { AppError } from "@payrail/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { authFailureKey } from "./auth-failure-key.ts";

export interface RateLimitOptions {
  /** Requests per minute per credential (API.md §9). */
  perMinute: number;
  /** Failed authentications (401 answers) per minute per client address and credential before 429. */
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
 * - failed authentications, per client address and presented credential (API.md §12): every
 *   401 counts, and a credential that used up its budget from an address gets 429 from there
 *   until its window ends, before it is looked at again. Keyed on the pair, so a client
 *   retrying a revoked key behind a shared proxy or NAT blocks only that key; guessing fresh
 *   credentials is left to their entropy (keys and tokens carry 256+ random bits) and codes to
 *   their per-code attempt limit.
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
    keyGenerator: authFailureKey,
    // Not the credential limit's allowList (it would exempt every unauthenticated request).
    allowList: [],
  });
  // When the last 401 is more than a window old, no credential can be over its budget (a
  // window opens at its first failure and none is extended), so nothing needs looking up: a
  // request then pays no credential hash and no counter read. The margin covers the moment
  // between a 401's answer and its count.
  let lastFailureAt = -Infinity;
  const noRecentFailure = () => Date.now() - lastFailureAt > WINDOW_MS + 1_000;
  // preValidation: the body is parsed (Verify Code's phone), and this app-wide hook runs before
  // the routes' own preValidation auth hooks, so a blocked credential is not even resolved.
  app.addHook("preValidation", (request, _reply, done) => {
    if (noRecentFailure() || !request.url.startsWith("/api/")) return done();
    failures(request, { increment: false }).then((seen) => {
      if (!seen.isAllowed && seen.remaining === 0) {
        done(limited(`too many failed authentications with this credential from this address; retry in ${seen.ttlInSeconds} s`, seen.ttlInSeconds));
      } else done();
    }, done);
  });
  app.addHook("onResponse", (request, reply, done) => {
    if (reply.statusCode !== 401) return done();
    lastFailureAt = Date.now();
    failures(request).then(() => {
      lastFailureAt = Date.now();
      done();
    }, done);
  });
}
