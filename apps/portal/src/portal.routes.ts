import { AppError } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { registerPageForms, sendAsset, type WebContext } from "@payrail/web";
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
  await registerPageForms(app, { secureCookies: ctx.secureCookies, csrfCookie: "payrail_account_csrf", path: PORTAL_PATH, sameSite: "lax" });
  app.setErrorHandler(portalErrorHandler(ctx.sandbox));

  app.get<{ Params: { name: string } }>(`${PORTAL_PATH}/assets/:name`, { schema: { hide: true } }, async (request, reply) => {
    if (request.params.name !== PORTAL_STYLE.name) throw new AppError("route_not_found", "There is no such file.");
    return sendAsset(reply, PORTAL_STYLE);
  });
  for (const routes of [signInRoutes, paymentsRoutes, subscriptionsRoutes, refundsRoutes, receiptsRoutes, bankAccountRoutes, microDepositRoutes]) await routes(app, ctx);
}
