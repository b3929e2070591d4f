import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { randomPhone } from "./support/bank-linking.ts";
import { DashboardClient, dashboardUser } from "./support/dashboard-session.ts";
import { PortalClient } from "./support/portal-client.ts";

const PROXY = "10.1.0.1";

interface SetCookie {
  name: string;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: string;
  path?: string;
}

/**
 * Session and CSRF cookies are `Secure` whenever the request came over https: directly, or as a
 * trusted proxy (TRUST_PROXY) says with X-Forwarded-Proto, and always in production. A client
 * that reaches the gateway itself cannot make the gateway believe its X-Forwarded-Proto.
 */
describe.each([
  {
    name: "behind a trusted proxy (TRUST_PROXY=10.1.0.1), X-Forwarded-Proto: https",
    gateway: { trustProxy: [PROXY] as string[] | number },
    from: { remoteAddress: PROXY, headers: { "x-forwarded-proto": "https" } },
    secure: true,
  },
  {
    name: "behind a trusted proxy (TRUST_PROXY=1, one hop), X-Forwarded-Proto: https",
    gateway: { trustProxy: 1 },
    from: { remoteAddress: PROXY, headers: { "x-forwarded-proto": "https" } },
    secure: true,
  },
  {
    name: "behind a trusted proxy (TRUST_PROXY=10.1.0.1), X-Forwarded-Proto: http",
    gateway: { trustProxy: [PROXY] },
    from: { remoteAddress: PROXY, headers: { "x-forwarded-proto": "http" } },
    secure: false,
  },
  {
    name: "without TRUST_PROXY, a client's own X-Forwarded-Proto: https",
    gateway: {},
    from: { remoteAddress: PROXY, headers: { "x-forwarded-proto": "https" } },
    secure: false,
  },
  {
    name: "a client that is not the trusted proxy, X-Forwarded-Proto: https",
    gateway: { trustProxy: [PROXY] },
    from: { remoteAddress: "198.51.100.20", headers: { "x-forwarded-proto": "https" } },
    secure: false,
  },
  {
    name: "in production (NODE_ENV=production), over plain http",
    gateway: { secureCookies: true },
    from: { remoteAddress: "198.51.100.20", headers: {} },
    secure: true,
  },
])("cookies $name", ({ gateway, from, secure }) => {
  const variant = embeddedVariant();
  let stack: Stack;
  let merchant: { id: string; apiKey: string };

  beforeAll(async () => {
    stack = await startStack(variant, { gateway });
    merchant = await stack.merchant("Corner Bakery");
  });
  afterAll(async () => {
    await stack.close();
    await variant.cleanup();
  });

  /** The stack's app as a browser behind `from` reaches it, remembering every cookie it was sent. */
  function browser(): { app: FastifyInstance; cookies: Map<string, SetCookie> } {
    const cookies = new Map<string, SetCookie>();
    const inject = async (options: InjectOptions): Promise<LightMyRequestResponse> => {
      const reply = await stack.app.inject({ ...options, remoteAddress: from.remoteAddress, headers: { ...options.headers, ...from.headers } });
      for (const c of reply.cookies as SetCookie[]) cookies.set(c.name, c);
      return reply;
    };
    return { app: { inject } as unknown as FastifyInstance, cookies };
  }

  it(secure ? "marks the dashboard's session and CSRF cookies Secure at sign-in" : "leaves the dashboard's session and CSRF cookies without Secure at sign-in", async () => {
    const { email } = await dashboardUser(stack.app, merchant.id, "owner");
    const { app, cookies } = browser();
    const signedIn = await new DashboardClient(app, from.remoteAddress).signIn(email);
    expect(signedIn.statusCode, signedIn.body).toBe(303);
    expect(cookies.get("payrail_dashboard")).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/dashboard" });
    expect(cookies.get("payrail_csrf")).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/dashboard" });
    expect(cookies.get("payrail_dashboard")?.secure ?? false).toBe(secure);
    expect(cookies.get("payrail_csrf")?.secure ?? false).toBe(secure);
  });

  it(secure ? "marks the consumer portal's session and CSRF cookies Secure at sign-in" : "leaves the consumer portal's session and CSRF cookies without Secure at sign-in", async () => {
    const { app, cookies } = browser();
    await new PortalClient(stack, app).signIn(randomPhone(), merchant.apiKey);
    expect(cookies.get("payrail_account")).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/account" });
    expect(cookies.get("payrail_account_csrf")).toMatchObject({ httpOnly: true, path: "/account" });
    expect(cookies.get("payrail_account")?.secure ?? false).toBe(secure);
    expect(cookies.get("payrail_account_csrf")?.secure ?? false).toBe(secure);
  });
});
