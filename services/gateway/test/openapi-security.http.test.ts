import { channel } from "node:diagnostics_channel";
import { createInProcessTransport } from "@payrail/messaging";
import { silentLogger } from "@payrail/runtime";
import type { FastifyInstance, RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { adminAuth, merchantAuth, merchantOrOperatorAuth, userAuth } from "../src/auth/hooks.ts";
import type { GatewayContext } from "../src/gateway-context.ts";

/** One way to be let in: the security schemes sent together (OpenAPI's security requirement). */
type Requirement = string[];

/**
 * The gateway's auth hooks, recognised by their code: each factory makes a new closure per
 * route, but every closure of one factory has the same source.
 */
const ctx = {} as GatewayContext;
const AUTH_HOOKS = new Map<string, Requirement[]>([
  [String(merchantAuth(ctx)), [["apiKey"]]],
  [String(userAuth(ctx)), [["authToken"]]],
  [String(merchantOrOperatorAuth(ctx)), [["apiKey"], ["authToken"]]],
  [String(adminAuth([])), [["adminToken"]]],
]);
/** The one reader of the `link-token` header, which handlers call themselves (imported, or local to its module). */
const READS_LINK_TOKEN = /\blinkTokenFrom\b/;

/** What a route really demands, from its preValidation hooks and its handler; undefined for a hook this test does not know. */
function realAuth(route: RouteOptions): Requirement[] | undefined {
  const hooks = [route.preValidation ?? []].flat();
  let requirements: Requirement[] = [[]];
  for (const hook of hooks) {
    const known = AUTH_HOOKS.get(String(hook));
    if (!known) return undefined;
    requirements = requirements.flatMap((r) => known.map((k) => [...r, ...k]));
  }
  if (READS_LINK_TOKEN.test(String(route.handler))) requirements = requirements.map((r) => [...r, "linkToken"]);
  return requirements.every((r) => r.length === 0) ? [] : requirements.map((r) => r.sort());
}

interface Operation {
  security?: Record<string, string[]>[];
}

describe("the OpenAPI document's security, against each route's real auth", () => {
  const routes: RouteOptions[] = [];
  let app: FastifyInstance;
  let paths: Record<string, Record<string, Operation>>;

  beforeAll(async () => {
    // Every route as it is declared: the app's own onRoute hooks see the same options.
    const init = channel("fastify.initialization");
    const collect = (message: unknown) => (message as { fastify: FastifyInstance }).fastify.addHook("onRoute", (route) => void routes.push(route));
    init.subscribe(collect);
    try {
      const logger = silentLogger();
      app = await buildApp({ transport: await createInProcessTransport({ logger }), logger, adminToken: "admin", apiKeyCacheMs: 0, rateLimitPerMinute: 1_000, authFailuresPerMinute: 1_000, services: [], sandbox: true });
    } finally {
      init.unsubscribe(collect);
    }
    paths = (await app.inject({ url: "/openapi.json" })).json().paths;
  });
  afterAll(async () => {
    await app?.close();
  });

  /** The documented operations, each with the route that serves it. */
  const documented = () =>
    Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => {
        const url = path.replace(/\{([^}]+)\}/g, ":$1");
        // The specification's trailing-slash forms are served by the route declared without it.
        const declared = url.endsWith("/") ? url.slice(0, -1) : url;
        const route = routes.find((r) => r.url === declared && [r.method].flat().includes(method.toUpperCase()));
        return { key: `${method.toUpperCase()} ${path}`, url, method, op, route };
      }),
    );

  it("knows every auth hook of every documented route", () => {
    const operations = documented();
    expect(operations.length).toBeGreaterThan(50);
    for (const { key, route } of operations) {
      expect(route, key).toBeDefined();
      // A new kind of auth hook: add it to AUTH_HOOKS with the schemes it takes.
      expect(realAuth(route!), `${key}: unknown preValidation hook`).toBeDefined();
    }
  });

  it("documents for every operation exactly the credentials its route demands", () => {
    const mismatches = documented().flatMap(({ key, op, route }) => {
      const real = realAuth(route!)!;
      const stated = (op.security ?? []).map((requirement) => Object.keys(requirement).sort());
      return JSON.stringify(stated) === JSON.stringify(real) ? [] : [`${key}: documented ${JSON.stringify(stated)}, demands ${JSON.stringify(real)}`];
    });
    expect(mismatches).toEqual([]);
  });

  it("answers 401 in the error shape to a request without credentials on every operation that demands one", async () => {
    for (const { key, url, method, route } of documented()) {
      if (realAuth(route!)!.length === 0) continue;
      const reply = await app.inject({ method: method.toUpperCase() as "GET", url: url.replace(/:[a-z_]+/g, "x"), payload: method === "get" || method === "delete" ? undefined : {} });
      expect(reply.statusCode, key).toBe(401);
      expect(reply.json().error, key).toMatchObject({ type: "authentication_error", code: expect.stringMatching(/_missing$|_invalid$/), request_id: expect.any(String) });
    }
  });
});
