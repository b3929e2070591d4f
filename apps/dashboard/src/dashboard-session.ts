import { AppError, resolveDashboardSessionOp, ANONYMOUS, type DashboardRole, type MerchantPrincipal } from "@payrail/contracts";
import type { CookieSerializeOptions } from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import { callService, sessionCookieOptions as pageSessionCookie, type WebContext } from "@payrail/web";

/** Who is signed in to the dashboard for this request. */
export interface DashboardUser {
  id: string;
  email: string;
  role: DashboardRole;
  merchantId: string;
  /** The team requires two-factor and this user has none: only the security page is open. */
  mustEnrol: boolean;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the dashboard's session hook; null on the pages open without a session. */
    dashboardUser: DashboardUser | null;
  }
}

export const SESSION_COOKIE = "payrail_dashboard";
const SESSION_TOKEN = /^[A-Za-z0-9_-]{20,128}$/;

/** The session cookie's options (@payrail/web, session-cookie.ts) on the dashboard's paths. */
export function sessionCookieOptions(request: FastifyRequest, maxAgeSeconds?: number): CookieSerializeOptions {
  return pageSessionCookie(request, "/dashboard", maxAgeSeconds);
}

/** The challenge between a right password and the second factor: its own short-lived cookie. */
export const TWO_FACTOR_COOKIE = "payrail_dashboard_2fa";

export function sessionTokenOf(request: FastifyRequest, cookie = SESSION_COOKIE): string | undefined {
  const token = request.cookies[cookie];
  return token && SESSION_TOKEN.test(token) ? token : undefined;
}

/**
 * Resolves the session cookie with identity on every request (nothing is cached here), so a
 * sign-out, a role change or a removal takes effect at the next click. The principal it sets
 * is the merchant's, with the user's id and role: the services refuse a viewer's changes.
 */
export async function loadDashboardSession(ctx: WebContext, request: FastifyRequest): Promise<DashboardUser | null> {
  const token = sessionTokenOf(request);
  if (!token) return null;
  try {
    const { user, livemode, must_enrol } = await callService(ctx, request, resolveDashboardSessionOp, { session_token: token }, ANONYMOUS);
    const principal: MerchantPrincipal = {
      kind: "merchant",
      merchantId: user.merchant_id,
      keyPrefix: `dashboard:${user.id}`,
      livemode,
      userId: user.id,
      role: user.role,
    };
    request.principal = principal;
    return { id: user.id, email: user.email, role: user.role, merchantId: user.merchant_id, mustEnrol: must_enrol };
  } catch (err) {
    if (err instanceof AppError && err.code === "session_invalid") return null;
    throw err;
  }
}

/** The signed-in user, or a redirect to the sign-in page. */
export function requireDashboardUser(request: FastifyRequest): DashboardUser {
  if (!request.dashboardUser) throw new AppError("session_invalid", "sign in to the dashboard");
  return request.dashboardUser;
}

export function canChange(user: DashboardUser): boolean {
  return user.role !== "viewer";
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(request));
}
