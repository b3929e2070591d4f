import type { Transport } from "@payrail/messaging";
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from "fastify";
import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { appendRouteHook } from "./route-hooks.ts";

/**
 * Prometheus metrics of this gateway: process defaults plus request counts and latency by
 * route, and the RPC requests this process's services skipped past their deadline; with the
 * launcher's `processMetrics`, those too (RPC by operation, events, outbox lag, business).
 *
 * Per request this costs one counter and one histogram update keyed by (method, route
 * pattern, status): all three come from fixed sets (unknown paths are "unmatched", never the
 * URL), so the series never grow with traffic and nothing is scanned on the request path.
 */
export function registerMetrics(app: FastifyInstance, transport: Transport, processMetrics?: Registry, serveOnApiPort = true): Registry {
  // Not served here: counted into the process's registry, which the launcher serves on METRICS_PORT.
  const registry = !serveOnApiPort && processMetrics ? processMetrics : new Registry();
  // The process's own registry (the launcher's) already has the process defaults.
  if (!processMetrics) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "payrail_http_requests_total",
    help: "HTTP requests by method, route and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "payrail_http_request_duration_seconds",
    help: "HTTP request duration by method and route",
    labelNames: ["method", "route"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // Read from the transport when scraped: the counting itself is one increment in the server.
  new Counter({
    name: "payrail_rpc_expired_requests_total",
    help: "RPC requests this process's services skipped unhandled because their caller's deadline had passed",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(transport.stats().expiredRequests);
    },
  });

  // Each route's label is its pattern, not the URL (ids in paths would explode the label
  // set), fixed when the route is declared: its own onResponse hook holds it, so a request
  // reads no `request.routeOptions` (an object fastify builds on every read) and reuses its
  // label objects. Requests no route matched (fastify's 404 handler) are "unmatched", counted
  // by the one app-wide hook, which returns at once for every other request.
  const observe = (request: FastifyRequest, reply: FastifyReply, labels: RouteLabels) => {
    const method = request.method;
    const status = reply.statusCode;
    let byStatus = labels.requests.get(method);
    if (byStatus === undefined) labels.requests.set(method, (byStatus = new Map()));
    let counted = byStatus.get(status);
    if (counted === undefined) byStatus.set(status, (counted = { method, route: labels.route, status: String(status) }));
    let timed = labels.duration.get(method);
    if (timed === undefined) labels.duration.set(method, (timed = { method, route: labels.route }));
    requests.inc(counted);
    duration.observe(timed, reply.elapsedTime / 1000);
  };
  app.addHook("onRoute", (route) => {
    const labels = routeLabels(route.url);
    const hook: onResponseHookHandler = (request, reply, done) => {
      observe(request, reply, labels);
      done();
    };
    appendRouteHook(route, "onResponse", hook);
  });
  const unmatched = routeLabels("unmatched");
  app.addHook("onResponse", (request, reply, done) => {
    if (request.is404) observe(request, reply, unmatched);
    done();
  });

  if (!serveOnApiPort) return registry;
  // One scrape answers both: this gateway's HTTP metrics and the process's (RPC, events, business).
  const served = processMetrics ? Registry.merge([registry, processMetrics]) : registry;
  app.get("/metrics", { schema: { hide: true } as Record<string, unknown> }, async (_request, reply) => {
    reply.header("content-type", served.contentType);
    return served.metrics();
  });
  return registry;
}

/** One route's label objects, made on its first request per method and status and then reused. */
interface RouteLabels {
  route: string;
  requests: Map<string, Map<number, { method: string; route: string; status: string }>>;
  duration: Map<string, { method: string; route: string }>;
}

function routeLabels(route: string): RouteLabels {
  return { route, requests: new Map(), duration: new Map() };
}
