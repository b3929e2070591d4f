import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

/** One year, the value HSTS preload lists ask for. */
const HSTS = "max-age=31536000; includeSubDomains";

/**
 * What every response carries, from @fastify/helmet: `X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY` and helmet's other defaults. API
 * responses (`/api/…`) are never cached (`Cache-Control: no-store`): they carry checkouts,
 * tokens and keys.
 *
 * Content-Security-Policy is off here: a JSON API has nothing for it to govern, and `/docs`
 * sets its own (openapi.plugin.ts) because swagger-ui needs a policy of its own.
 *
 * HSTS only on a request that came over https. `request.protocol` believes `X-Forwarded-Proto`
 * only when fastify's `trustProxy` is configured (GatewayOptions.trustProxy); without it, behind
 * a TLS-terminating proxy the gateway sees http and sends no HSTS: the proxy should set it.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: false,
    hsts: false,
    referrerPolicy: { policy: "no-referrer" },
    frameguard: { action: "deny" },
  });
  app.addHook("onRequest", (request, reply, done) => {
    if (isApiPath(request.url)) reply.header("cache-control", "no-store");
    if (request.protocol === "https") reply.header("strict-transport-security", HSTS);
    done();
  });
}

function isApiPath(url: string): boolean {
  return url === "/api" || url.startsWith("/api/") || url.startsWith("/api?");
}

/**
 * The same headers for a URL the router refused (errors.plugin.ts `answerRouterError`): no
 * hook runs for it, helmet's included. It answers only errors, so no-store whatever the path.
 */
export const ROUTER_ERROR_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};
