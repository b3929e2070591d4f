import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet from "helmet";

/** One year, the value HSTS preload lists ask for. */
const HSTS = "max-age=31536000; includeSubDomains";

/**
 * What every response carries: its `x-request-id` (docs/api-notes.md, Requests: the request's own when it is a
 * safe short string, else the one `genReqId` made), `X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY` and `Cross-Origin-Resource-Policy:
 * same-origin`. API responses (`/api/…`) are never cached (`Cache-Control: no-store`): they
 * carry checkouts, tokens and keys. Pages (the dashboard, the portal, the hosted page, `/docs`)
 * also get helmet's headers that act only on a document (DNS prefetch of its links, Origin-Agent-Cluster,
 * the opener policy, IE's download and XSS options, Flash's and Acrobat's cross-domain policy);
 * a JSON answer is never one, so the API's answers leave those six out (docs/decisions/0014-gateway-security.md,
 * "Security headers"). One synchronous hook sets them all from objects made at start-up: a hook
 * costs every request its turn in fastify's hook runner, and node checks each header sent.
 *
 * Content-Security-Policy is off here: a JSON API has nothing for it to govern, and `/docs`
 * sets its own (openapi.plugin.ts) because swagger-ui needs a policy of its own.
 *
 * HSTS only on a request that came over https. `request.protocol` believes `X-Forwarded-Proto`
 * only when fastify's `trustProxy` is configured (GatewayOptions.trustProxy); without it, behind
 * a TLS-terminating proxy the gateway sees http and sends no HSTS: the proxy should set it.
 */
export function registerResponseHeaders(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    reply.headers(isApiPath(request.url) ? API_HEADERS : PAGE_HEADERS);
    if (request.protocol === "https") reply.header("strict-transport-security", HSTS);
    done();
  });
}

/**
 * Helmet's headers for this configuration, asked of helmet once at start-up. Without a CSP they
 * do not depend on the request, and @fastify/helmet would build helmet's middleware again for
 * every request (about 3% of a Get's CPU).
 */
const PAGE_HEADERS: Readonly<Record<string, string>> = helmetHeaders({
  contentSecurityPolicy: false,
  hsts: false,
  referrerPolicy: { policy: "no-referrer" },
  frameguard: { action: "deny" },
});

/** The headers of PAGE_HEADERS that act on any response, not only on a document; and no-store. */
const API_HEADERS: Readonly<Record<string, string>> = {
  ...pick(PAGE_HEADERS, ["x-content-type-options", "referrer-policy", "x-frame-options", "cross-origin-resource-policy"]),
  "cache-control": "no-store",
};

function pick(headers: Readonly<Record<string, string>>, names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (value === undefined) throw new Error(`helmet no longer sets ${name}`);
    picked[name] = value;
  }
  return picked;
}

function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
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
