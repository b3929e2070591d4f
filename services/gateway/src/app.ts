import type { Transport } from "@payrail/messaging";
import { prefixedHexId, type Logger } from "@payrail/runtime";
import type { Registry } from "prom-client";
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { ApiKeyCache } from "./auth/api-key.cache.ts";
import type { GatewayContext } from "./gateway-context.ts";
import { answerRouterError, registerErrorHandling } from "./plugins/errors.plugin.ts";
import { registerIdempotencyReplayHeader } from "./plugins/idempotency.plugin.ts";
import { registerRateLimits } from "./plugins/rate-limit.plugin.ts";
import { sharedLimits } from "./plugins/shared-limits.ts";
import { registerMetrics } from "./plugins/metrics.plugin.ts";
import { registerOpenApi } from "./plugins/openapi.plugin.ts";
import { lazyChildLogger } from "./plugins/lazy-request-logger.ts";
import { registerRequestLog } from "./plugins/request-log.plugin.ts";
import { registerResponseHeaders } from "./plugins/response-headers.plugin.ts";
import { fastifyTrustProxy } from "./plugins/trust-proxy.ts";
import { jsonSerializerCompiler, zodValidatorCompiler } from "./plugins/validation.ts";
import { adminRoutes } from "./routes/admin.routes.ts";
import { healthRoutes } from "./routes/health.routes.ts";
import { faviconRoutes } from "./routes/favicon.routes.ts";
import { sandboxTransfersRoutes } from "./routes/sandbox-transfers.routes.ts";
import { sandboxSubscriptionsRoutes } from "./routes/sandbox-subscriptions.routes.ts";
import { transfersRoutes } from "./routes/transfers.routes.ts";
import { webhooksRoutes } from "./routes/webhooks.routes.ts";
import { consumerIdentityRoutes } from "./routes/consumer-identity.routes.ts";
import { sandboxIdentityRoutes } from "./routes/sandbox-identity.routes.ts";
import { consumerCheckoutRoutes } from "./routes/consumer-checkout.routes.ts";
import { consumerMicroDepositRoutes } from "./routes/consumer-micro-deposits.routes.ts";
import { consumerBankAccountRoutes } from "./routes/consumer-bank-account.routes.ts";
import { merchantCheckoutRoutes } from "./routes/merchant-checkout.routes.ts";
import { sandboxBankRoutes } from "./routes/sandbox-bank.routes.ts";
import { refundsRoutes } from "./routes/refunds.routes.ts";
import { returnRatesRoutes } from "./routes/return-rates.routes.ts";
import { merchantProfileRoutes } from "./routes/merchant-profile.routes.ts";
import { reviewsRoutes } from "./routes/reviews.routes.ts";
import { complianceRoutes } from "./routes/compliance.routes.ts";
import { registerConsumerCors } from "./plugins/cors.plugin.ts";
import { consumerHostedRoutes } from "./routes/consumer-hosted.routes.ts";
import { sandboxConsumerBankRoutes } from "./routes/sandbox-consumer-bank.routes.ts";
import { eventsRoutes } from "./routes/events.routes.ts";
import { webhookEndpointsRoutes } from "./routes/webhook-endpoints.routes.ts";
import { DEFAULT_SANDBOX_EVENTS_PER_MINUTE, sandboxEventsRoutes } from "./routes/sandbox-events.routes.ts";
import { noticesRoutes } from "./routes/notices.routes.ts";
import { auditLogRoutes } from "./routes/audit-log.routes.ts";
import { booksRoutes } from "./routes/books.routes.ts";
import { payoutsRoutes, sandboxPayoutsRoutes } from "./routes/payouts.routes.ts";
import { sandboxNoticesRoutes } from "./routes/sandbox-notices.routes.ts";
import { mandatesRoutes } from "./routes/mandates.routes.ts";
import { consumerSubscriptionsRoutes } from "./routes/consumer-subscriptions.routes.ts";
import { merchantSubscriptionsRoutes } from "./routes/merchant-subscriptions.routes.ts";
import { dashboardRoutes } from "@payrail/dashboard";
import { hostedPageRoutes } from "@payrail/hosted-page";
import { noticesUnsubscribeRoutes, portalRoutes } from "@payrail/portal";

export interface GatewayOptions {
  transport: Transport;
  logger: Logger;
  adminToken?: string | undefined;
  /**
   * The admin token `payrail start` makes for the CLI beside an embedded store (kept in
   * DATA_DIR, owner-only): accepted on the admin routes like ADMIN_TOKEN, but not documented.
   */
  cliAdminToken?: string | undefined;
  apiKeyCacheMs: number;
  rateLimitPerMinute: number;
  /** Failed authentications per minute per client address before 429 (default 20). */
  authFailuresPerMinute?: number | undefined;
  /**
   * SHARED_LIMITS: the request and failed-authentication limits draw their budgets in blocks
   * from counters in identity's store, so they hold across gateways
   * (docs/decisions/0049-shared-request-limits.md). Off: each gateway counts alone.
   */
  sharedLimits?: boolean | undefined;
  /** Services `/readyz` pings. */
  services: readonly string[];
  /** PROVIDERS=sandbox: the sandbox routes exist (docs/api-notes.md, The sandbox; 404 in live mode). */
  sandbox: boolean;
  /**
   * Fastify's `trustProxy` (TRUST_PROXY): whose `X-Forwarded-*` (client address, protocol) are
   * believed: a hop count or the proxies' addresses. Off by default: the client is the socket's
   * peer, and HSTS is sent only on a TLS socket.
   */
  trustProxy?: boolean | number | string | string[] | undefined;
  /** DEFAULT_PHONE_COUNTRY (default US): the hosted page tells consumers which numbers need no country code. */
  defaultPhoneCountry?: string | undefined;
  /** PUBLIC_URL: the base of the hosted page's links; unset, the host the merchant called. */
  publicUrl?: string | undefined;
  /** CORS_ORIGINS: origins whose pages may call the consumer routes (none: CORS off). */
  corsOrigins?: readonly string[] | undefined;
  /** Session and CSRF cookies (dashboard, portal) marked Secure whatever the request's protocol (production: TLS ends at a proxy). */
  secureCookies?: boolean | undefined;
  /** SANDBOX_EVENTS_PER_MINUTE: test events (`POST /api/sandbox/events`) per merchant per minute (default 30). */
  sandboxEventsPerMinute?: number | undefined;
  /** The process's metrics (RPC, events, business), served on `/metrics` with the HTTP ones. */
  processMetrics?: Registry | undefined;
  /**
   * `/metrics` on the API port (default true, for development). false (production): the HTTP
   * metrics are counted into `processMetrics`, which the launcher serves on METRICS_PORT only.
   */
  metricsOnApiPort?: boolean | undefined;
  /** True once the process drains (SIGTERM): `/readyz` answers 503 while requests are still served. */
  draining?: () => boolean;
}

export const BODY_LIMIT_BYTES = 64 * 1024;
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the HTTP app (not listening): tests drive it with `app.inject`. */
export async function buildApp(options: GatewayOptions): Promise<FastifyInstance> {
  // pino's Logger and fastify's base logger differ only in typing details.
  const logger = options.logger as FastifyBaseLogger;
  const app = Fastify({
    loggerInstance: logger,
    logController: new LogController({
      // One line per request, from the request-log plugin, instead of fastify's two.
      disableRequestLogging: true,
      // The services log the request id as `requestId` too, so one search finds every line.
      requestIdLogLabel: "requestId",
    }),
    childLoggerFactory: (logger, bindings, childOptions) => lazyChildLogger(logger, bindings, childOptions),
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true },
    // URLs the router refuses answer the error body too (docs/api-notes.md, Answers and errors), not fastify's own.
    frameworkErrors: answerRouterError(logger),
    trustProxy: fastifyTrustProxy(options.trustProxy),
    // A client's x-request-id is kept when it is a safe short string, else we make one.
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && SAFE_REQUEST_ID.test(given) ? given : prefixedHexId("req_");
    },
  });
  // Bodies are JSON only (docs/api-notes.md, Requests): fastify's built-in text/plain parser would let text through.
  app.removeContentTypeParser("text/plain");
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(jsonSerializerCompiler);
  app.decorateRequest("principal", null as never);
  registerRequestLog(app);
  // Before any route is declared: it labels each route as it is declared (onRoute).
  const metrics = registerMetrics(app, options.transport, options.processMetrics, options.metricsOnApiPort ?? true);
  // Hooks that await nothing take `done`: an async hook costs every request a promise.
  registerResponseHeaders(app);
  registerErrorHandling(app);
  registerIdempotencyReplayHeader(app);
  await registerConsumerCors(app, options.corsOrigins ?? []);
  await registerRateLimits(app, {
    perMinute: options.rateLimitPerMinute,
    authFailuresPerMinute: options.authFailuresPerMinute ?? 20,
    shared: options.sharedLimits ? sharedLimits(options.transport, options.logger, metrics) : undefined,
  });

  const ctx: GatewayContext = {
    transport: options.transport,
    apiKeyCache: new ApiKeyCache(options.apiKeyCacheMs),
    adminToken: options.adminToken,
    services: options.services,
    sandbox: options.sandbox,
    publicUrl: options.publicUrl,
    defaultPhoneCountry: options.defaultPhoneCountry ?? "US",
    secureCookies: options.secureCookies ?? false,
    sandboxEventsPerMinute: options.sandboxEventsPerMinute ?? DEFAULT_SANDBOX_EVENTS_PER_MINUTE,
    ...(options.draining ? { draining: options.draining } : {}),
  };

  await registerOpenApi(app);
  await app.register(async (scope) => healthRoutes(scope, ctx));
  await app.register(faviconRoutes);
  await app.register(async (scope) => merchantCheckoutRoutes(scope, ctx));
  await app.register(async (scope) => consumerIdentityRoutes(scope, ctx));
  if (ctx.sandbox) await app.register(async (scope) => sandboxIdentityRoutes(scope, ctx));
  await app.register(async (scope) => {
    await consumerCheckoutRoutes(scope, ctx);
    // The same scope: its JSON parser takes an empty body as none (Start Micro-deposits has none).
    consumerMicroDepositRoutes(scope, ctx);
  });
  if (ctx.sandbox) await app.register(async (scope) => sandboxBankRoutes(scope, ctx));
  await app.register(async (scope) => transfersRoutes(scope, ctx));
  await app.register(async (scope) => consumerBankAccountRoutes(scope, ctx));
  if (ctx.sandbox) await app.register(async (scope) => sandboxTransfersRoutes(scope, ctx));
  if (ctx.sandbox) await app.register(async (scope) => sandboxSubscriptionsRoutes(scope, ctx));
  await app.register(async (scope) => webhooksRoutes(scope, ctx));
  await app.register(async (scope) => refundsRoutes(scope, ctx));
  await app.register(async (scope) => returnRatesRoutes(scope, ctx));
  await app.register(async (scope) => merchantProfileRoutes(scope, ctx));
  await app.register(async (scope) => reviewsRoutes(scope, ctx));
  await app.register(async (scope) => complianceRoutes(scope, ctx));
  await app.register(async (scope) => mandatesRoutes(scope, ctx));
  await app.register(async (scope) => consumerSubscriptionsRoutes(scope, ctx));
  await app.register(async (scope) => merchantSubscriptionsRoutes(scope, ctx));
  // The consumer's hosted page (issue 12) and what it calls besides the spec's routes.
  await app.register(async (scope) => consumerHostedRoutes(scope, ctx));
  if (ctx.sandbox) await app.register(async (scope) => sandboxConsumerBankRoutes(scope, ctx));
  await app.register(async (scope) => hostedPageRoutes(scope, ctx));
  // The consumer portal (issue 23): pages at /account over the same operations.
  await app.register(async (scope) => portalRoutes(scope, ctx));
  await app.register(async (scope) => eventsRoutes(scope, ctx));
  await app.register(async (scope) => webhookEndpointsRoutes(scope, ctx));
  if (ctx.sandbox) await app.register(async (scope) => sandboxEventsRoutes(scope, ctx));
  await app.register(async (scope) => noticesRoutes(scope, ctx));
  await app.register(async (scope) => booksRoutes(scope, ctx));
  await app.register(async (scope) => payoutsRoutes(scope, ctx));
  await app.register(async (scope) => auditLogRoutes(scope, ctx));
  if (ctx.sandbox) await app.register(async (scope) => sandboxPayoutsRoutes(scope, ctx));
  if (ctx.sandbox) await app.register(async (scope) => sandboxNoticesRoutes(scope, ctx));
  // Unsubscribe links of consumer notices: pages, in their own scope (a form-body parser).
  await app.register(async (scope) => noticesUnsubscribeRoutes(scope, ctx));
  // The merchant dashboard (issue 22): pages over the same RPC operations, in its own scope.
  await app.register(async (scope) => dashboardRoutes(scope, ctx));
  const adminTokens = [options.adminToken, options.cliAdminToken].filter((t): t is string => !!t);
  if (adminTokens.length > 0) await app.register(async (scope) => adminRoutes(scope, ctx, adminTokens, !!options.adminToken));
  return app;
}
