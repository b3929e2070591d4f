import { AppError } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { fromFastifyError, html, registerPageForms, sendAsset, type Html, type WebContext } from "@payrail/web";
import { DASHBOARD_ASSETS } from "./dashboard-assets.ts";
import { clearSessionCookie, loadDashboardSession } from "./dashboard-session.ts";
import { sendPage } from "./layout.ts";
import { apiKeysRoutes } from "./routes/api-keys.routes.ts";
import { balanceRoutes } from "./routes/balance.routes.ts";
import { checkoutsRoutes } from "./routes/checkouts.routes.ts";
import { auditLogRoutes } from "./routes/audit-log.routes.ts";
import { eventsPageRoutes } from "./routes/events.routes.ts";
import { exportsRoutes } from "./routes/exports.routes.ts";
import { overviewRoutes } from "./routes/overview.routes.ts";
import { refundsPageRoutes } from "./routes/refunds.routes.ts";
import { reviewsPageRoutes } from "./routes/reviews.routes.ts";
import { sandboxSettleRoutes } from "./routes/sandbox-settle.routes.ts";
import { passwordResetRoutes } from "./routes/password-reset.routes.ts";
import { securityRoutes } from "./routes/security.routes.ts";
import { signInRoutes } from "./routes/sign-in.routes.ts";
import { subscriptionsRoutes } from "./routes/subscriptions.routes.ts";
import { teamRoutes } from "./routes/team.routes.ts";
import { webhooksPageRoutes } from "./routes/webhooks.routes.ts";

/**
 * The merchant dashboard (docs/api-notes.md, The hosted page, the dashboard and the portal) at `/dashboard`: server-rendered pages over the same RPC
 * operations the API uses, under the signed-in user's merchant principal. In this scope only:
 * HTML forms (urlencoded bodies), a CSRF check on every POST (@fastify/csrf-protection, its
 * secret in a SameSite=Strict cookie), the session resolved on every request, and errors as
 * pages rather than JSON. Its cookies (@fastify/cookie) are registered for this scope alone.
 */
export async function dashboardRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  await registerPageForms(app, { secureCookies: ctx.secureCookies, csrfCookie: "payrail_csrf", path: "/dashboard", sameSite: "strict" });
  app.decorateRequest("dashboardUser", null);

  app.addHook("preValidation", (request, reply, done) => {
    if (request.method === "POST") app.csrfProtection(request, reply, done);
    else done();
  });
  // preValidation, so the merchant principal is set before the app's rate limit (preHandler) counts it.
  app.addHook("preValidation", async (request) => {
    if (request.url.startsWith("/dashboard/assets/")) return;
    request.dashboardUser = await loadDashboardSession(ctx, request);
  });
  // A team that requires two-factor holds a member without it at the enrolment: every other page
  // (a POST too) leads there until it is done.
  app.addHook("preValidation", async (request, reply) => {
    if (!request.dashboardUser?.mustEnrol) return;
    const path = request.url.split("?")[0]!;
    if (path.startsWith("/dashboard/security") || path === "/dashboard/sign-out" || path.startsWith("/dashboard/assets/")) return;
    return reply.redirect("/dashboard/security", 303);
  });

  app.setErrorHandler((err: unknown, request, reply) => {
    if (err instanceof AppError && err.code === "session_invalid") {
      clearSessionCookie(request, reply);
      return reply.redirect("/dashboard/sign-in", 303);
    }
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("FST_CSRF_")) {
      request.errorCode = "permission_denied";
      return sendPage(ctx, request, reply, {
        title: "Form expired",
        status: 403,
        error: "This form expired or did not come from this dashboard. Go back, reload the page and try again.",
        body: backLink(),
      });
    }
    const error = err instanceof AppError ? err : fromFastifyError(err as { code?: string; statusCode?: number; message: string });
    request.errorCode = error.code;
    if (error.code === "internal_error") request.log.error({ err }, "unhandled error");
    if (error.status === 429 || error.status === 503) reply.header("retry-after", String(Math.max(1, Math.ceil(error.retryAfter ?? 1))));
    const title = error.status === 403 ? "Not allowed" : error.status === 404 ? "Not found" : "That did not work";
    return sendPage(ctx, request, reply, { title, status: error.status, error: error.message, body: backLink() });
  });

  const hide = { schema: { hide: true } };
  app.get<{ Params: { name: string } }>("/dashboard/assets/:name", hide, async (request, reply) => {
    const asset = DASHBOARD_ASSETS.get(request.params.name);
    if (!asset) throw new AppError("route_not_found", "no such asset");
    return sendAsset(reply, asset);
  });

  app.addHook("onRoute", (route) => {
    route.schema = { ...route.schema, hide: true } as typeof route.schema;
  });
  const sections = [signInRoutes, passwordResetRoutes, securityRoutes, overviewRoutes, checkoutsRoutes, subscriptionsRoutes, refundsPageRoutes, balanceRoutes, exportsRoutes, reviewsPageRoutes, webhooksPageRoutes, eventsPageRoutes, apiKeysRoutes, teamRoutes, auditLogRoutes];
  for (const routes of ctx.sandbox ? [...sections, sandboxSettleRoutes] : sections) await routes(app, ctx);
}

function backLink(): Html {
  return html`<p><a href="/dashboard">Back to the overview</a></p>`;
}
