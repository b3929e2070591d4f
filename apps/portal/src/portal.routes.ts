import csrfProtection from "@fastify/csrf-protection";
import formbody from "@fastify/formbody";
import { AppError } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { registerCookies, type WebContext } from "@payrail/web";
import { bankAccountRoutes } from "./bank-account.routes.ts";
import { microDepositRoutes } from "./micro-deposits.routes.ts";
import { paymentsRoutes } from "./payments.routes.ts";
import { portalErrorHandler } from "./portal-reply.ts";
import { PORTAL_PATH } from "./portal-session.ts";
import { PORTAL_STYLE } from "./portal-style.ts";
import { receiptsRoutes } from "./receipts.routes.ts";
import { refundsRoutes } from "./refunds.routes.ts";
import { signInRoutes } from "./sign-in.routes.ts";
import { subscriptionsRoutes } from "./subscriptions.routes.ts";

/**
 * The consumer portal at `/account` (docs/api-notes.md, The hosted page, the dashboard and the portal): server-rendered pages whose every action is
 * a form, over the same RPC operations as the API; no script, but for Plaid Link on the live
 * bank-account page (bank-account.routes.ts). Registered in its own
 * scope: the form-body parser and the CSRF check exist only here (the API stays JSON-only).
 * The CSRF secret lives in its own httpOnly cookie on the portal's paths (@fastify/cookie,
 * registered for this scope by registerCookies, @payrail/web).
 */
export async function portalRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  await registerCookies(app, { alwaysSecure: ctx.secureCookies });
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  await app.register(csrfProtection, {
    sessionPlugin: "@fastify/cookie",
    cookieKey: "payrail_account_csrf",
    // Secure is the request's (csrf-token.ts sets it on every secret cookie it makes).
    cookieOpts: { path: PORTAL_PATH, httpOnly: true, sameSite: "lax" },
  });
  app.setErrorHandler(portalErrorHandler(ctx.sandbox));

  app.get<{ Params: { name: string } }>(`${PORTAL_PATH}/assets/:name`, { schema: { hide: true } }, async (request, reply) => {
    if (request.params.name !== PORTAL_STYLE.name) throw new AppError("route_not_found", "There is no such file.");
    return reply.header("cache-control", "public, max-age=31536000, immutable").type("text/css; charset=utf-8").send(PORTAL_STYLE.body);
  });
  await signInRoutes(app, ctx);
  await paymentsRoutes(app, ctx);
  await subscriptionsRoutes(app, ctx);
  await refundsRoutes(app, ctx);
  await receiptsRoutes(app, ctx);
  await bankAccountRoutes(app, ctx);
  await microDepositRoutes(app, ctx);
}
