import rateLimit from "@fastify/rate-limit";
import { AppError } from "@payrail/contracts";
import { addressBucket } from "@payrail/runtime";
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, preHandlerHookHandler } from "fastify";
import { authFailureKey } from "./auth-failure-key.ts";
import { FixedWindows } from "./fixed-windows.ts";
import { appendRouteHook } from "./route-hooks.ts";
import type { SharedLimits } from "./shared-limits.ts";

export interface RateLimitOptions {
  /** Requests per minute per credential (docs/api-notes.md, Limits), and per client address for requests without one. */
  perMinute: number;
  /** Failed authentications (401 answers) per minute per client address and credential before 429. */
  authFailuresPerMinute: number;
  /**
   * SHARED_LIMITS: every limit draws its budget from the counters all gateways share
   * (docs/decisions/0049-shared-request-limits.md); unset, each gateway counts alone.
   */
  shared?: SharedLimits | undefined;
}

const WINDOW_MS = 60_000;

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * A stricter budget for this route, per merchant (whichever key or dashboard user calls),
     * in requests per minute, on top of the credential's: for routes whose one request costs
     * many (a test event fans out to every endpoint).
     */
    perMerchantPerMinute?: number;
  }
}

/** The credential a request was served under, once its route's auth hook ran; none for anonymous routes. */
function credentialKey(request: FastifyRequest): string | undefined {
  const p = request.principal;
  if (p?.kind === "merchant") return `key:${p.keyPrefix}`;
  if (p?.kind === "user") return `token:${p.tokenId ?? p.userId}`;
  return undefined;
}

/**
 * What a request is counted by: its credential, or for a request without one its client
 * address (an IPv6 client by its /64), so no unauthenticated route is outside every limit.
 * The admin token is not limited (the operator's own CLI).
 */
function limitKey(request: FastifyRequest): string | undefined {
  const credential = credentialKey(request);
  if (credential !== undefined || request.principal?.kind === "admin") return credential;
  return `address:${addressBucket(request.ip) ?? request.ip}`;
}

function limited(message: string, retryAfter: number): AppError {
  return new AppError("rate_limited", message, { retryAfter: Math.max(1, retryAfter) });
}

/** Counts one request of `key` at `now`: whether it is within the budget, and when its window opened. */
type CountRequest = (key: string, now: number) => { ok: boolean; openedAt: number };

function localCount(max: number): CountRequest {
  const windows = new FixedWindows(WINDOW_MS);
  return (key, now) => {
    const window = windows.hit(key, now);
    return { ok: window.count <= max, openedAt: window.openedAt };
  };
}

/** A route's own budget per merchant (`config.perMerchantPerMinute`), after the credential's. */
function perMerchantLimit(max: number, count: CountRequest): preHandlerHookHandler {
  return (request, _reply, done) => {
    const p = request.principal;
    if (p?.kind !== "merchant") return done();
    const now = Date.now();
    const window = count(p.merchantId, now);
    if (window.ok) return done();
    const resetS = Math.ceil((window.openedAt + WINDOW_MS - now) / 1000);
    done(limited(`at most ${max} requests a minute to this route per merchant; retry in ${resetS} s`, resetS));
  };
}

/** The draft standard's headers of a counted request, then on (or 429 past the budget). */
function answer(reply: FastifyReply, done: HookHandlerDoneFunction, limit: string, remaining: number, resetS: number, ok: boolean): void {
  reply.header("ratelimit-limit", limit);
  reply.header("ratelimit-remaining", String(remaining));
  reply.header("ratelimit-reset", String(resetS));
  if (ok) return done();
  done(limited(`too many requests; retry in ${resetS} s`, resetS));
}

/**
 * Rate limits (fixed one-minute windows in this gateway's memory, docs/decisions/0015-request-limits.md;
 * with `shared`, their budgets drawn in blocks from counters every gateway shares,
 * docs/decisions/0049-shared-request-limits.md):
 *
 * - per credential: after the route's auth hook (`preHandler`), keyed by the api-key's prefix or
 *   the auth token's record, with the draft standard's `RateLimit-Limit/-Remaining/-Reset`
 *   headers on every authenticated answer and `Retry-After` on the 429. Counted by this file's
 *   own synchronous hook over `FixedWindows`, added to each route as it is declared: the
 *   plugin's hook awaited four promises and built `request.routeOptions` on every request. A
 *   route with its own `config.rateLimit` (the hosted checkout, keyed by its link token) is
 *   left to `@fastify/rate-limit`, registered for that and for the failure limit below;
 * - per client address, the same number, for every request that carries no credential (sign-in
 *   forms, Send Code, pages, health): windows of their own, so a flood of addresses cannot push
 *   the credentials' windows out of the LRU (docs/decisions/0004-sign-in-limits.md);
 * - failed authentications, per client address and presented credential (docs/api-notes.md, Limits): every
 *   401 counts, and a credential that used up its budget from an address gets 429 from there
 *   until its window ends, before it is looked at again. Keyed on the pair, so a client
 *   retrying a revoked key behind a shared proxy or NAT blocks only that key; guessing fresh
 *   credentials is left to their entropy (keys and tokens carry 256+ random bits) and codes to
 *   their per-code attempt limit;
 * - a route's own budget per merchant (`config.perMerchantPerMinute`), counted after the
 *   credential's, for routes whose one request costs many (sandbox test events).
 */
export async function registerRateLimits(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    hook: "preHandler",
    max: options.perMinute,
    timeWindow: WINDOW_MS,
    enableDraftSpec: true,
    keyGenerator: (request) => credentialKey(request) ?? "",
    allowList: (request) => credentialKey(request) === undefined,
    errorResponseBuilder: (_request, context) => limited(`too many requests; retry in ${context.after}`, Math.ceil(context.ttl / 1000)),
  });

  const max = options.perMinute;
  const limit = String(max);
  const shared = options.shared;
  let perCredential: preHandlerHookHandler;
  if (shared) {
    // Addresses in windows of their own here too, so a flood of addresses cannot push the credentials out.
    const windows = shared(max, WINDOW_MS, "requests");
    const addressWindows = shared(max, WINDOW_MS, "requests");
    perCredential = (request, reply, done) => {
      const key = limitKey(request);
      if (key === undefined) return done();
      const now = Date.now();
      const window = (key.startsWith("address:") ? addressWindows : windows).hit(key, now);
      answer(reply, done, limit, window.remaining, Math.ceil((window.openedAt + WINDOW_MS - now) / 1000), window.ok);
    };
  } else {
    const windows = new FixedWindows(WINDOW_MS);
    const addressWindows = new FixedWindows(WINDOW_MS);
    perCredential = (request, reply, done) => {
      const key = limitKey(request);
      if (key === undefined) return done();
      const now = Date.now();
      const window = (key.startsWith("address:") ? addressWindows : windows).hit(key, now);
      answer(reply, done, limit, Math.max(0, max - window.count), Math.ceil((window.openedAt + WINDOW_MS - now) / 1000), window.count <= max);
    };
  }
  app.addHook("onRoute", (route) => {
    if (route.config?.rateLimit != null) return; // the plugin's
    appendRouteHook(route, "preHandler", perCredential);
    const perMerchant = route.config?.perMerchantPerMinute;
    if (perMerchant === undefined) return;
    const count = shared ? shared(perMerchant, WINDOW_MS, `merchant:${route.method}:${route.url}`) : undefined;
    appendRouteHook(route, "preHandler", perMerchantLimit(perMerchant, count ? (key, now) => count.hit(key, now) : localCount(perMerchant)));
  });

  // When the last 401 is more than a window old, no credential can be over its budget (a
  // window opens at its first failure and none is extended), so nothing needs looking up: a
  // request then pays no credential hash and no counter read. The margin covers the moment
  // between a 401's answer and its count. Shared, a credential's failures on other gateways
  // are learnt at its first failure here (docs/decisions/0049-shared-request-limits.md).
  let lastFailureAt = -Infinity;
  const noRecentFailure = () => Date.now() - lastFailureAt > WINDOW_MS + 1_000;
  const blocked = (retryAfter: number) =>
    limited(`too many failed authentications with this credential from this address; retry in ${retryAfter} s`, retryAfter);
  // preValidation: the body is parsed (Verify Code's phone), and this app-wide hook runs before
  // the routes' own preValidation auth hooks, so a blocked credential is not even resolved.
  if (shared) {
    const failures = shared(options.authFailuresPerMinute, WINDOW_MS, "auth-failures");
    app.addHook("preValidation", (request, _reply, done) => {
      if (noRecentFailure() || !request.url.startsWith("/api/")) return done();
      const now = Date.now();
      const full = failures.full(authFailureKey(request), now);
      if (full === undefined) return done();
      done(blocked(Math.ceil((full.openedAt + WINDOW_MS - now) / 1000)));
    });
    app.addHook("onResponse", (request, reply, done) => {
      if (reply.statusCode !== 401) return done();
      lastFailureAt = Date.now();
      failures.hit(authFailureKey(request), lastFailureAt);
      done();
    });
    return;
  }
  const failures = app.createRateLimit({
    max: options.authFailuresPerMinute,
    timeWindow: WINDOW_MS,
    keyGenerator: authFailureKey,
    // Not the credential limit's allowList (it would exempt every unauthenticated request).
    allowList: [],
  });
  app.addHook("preValidation", (request, _reply, done) => {
    if (noRecentFailure() || !request.url.startsWith("/api/")) return done();
    failures(request, { increment: false }).then((seen) => {
      if (!seen.isAllowed && seen.remaining === 0) done(blocked(seen.ttlInSeconds));
      else done();
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
