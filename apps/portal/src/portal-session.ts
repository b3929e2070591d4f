import { AppError } from "@payrail/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { sessionCookieOptions, userOfToken, type WebContext } from "@payrail/web";

/** The cookie that holds the consumer's auth token: only the portal's paths ever send it. */
export const SESSION_COOKIE = "payrail_account";
export const PORTAL_PATH = "/account";

/**
 * The pages' session cookie (@payrail/web, session-cookie.ts) on the portal's paths. No Max-Age:
 * the token itself expires (24 h) and the cookie ends with the browser session.
 */
const portalCookie = (reply: FastifyReply) => sessionCookieOptions(reply.request, PORTAL_PATH);

export function startSession(reply: FastifyReply, authToken: string): void {
  reply.setCookie(SESSION_COOKIE, authToken, portalCookie(reply));
}

export function endSession(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, portalCookie(reply));
}

/** The session's token, or null when the browser sent none (or an unusable one). */
export function sessionToken(request: FastifyRequest): string | null {
  const token = request.cookies[SESSION_COOKIE];
  return token && token.length <= 512 ? token : null;
}

/**
 * A route hook: the session cookie's token → the consumer, as `Authorization` is on the API
 * (never cached: a sign-out anywhere ends it at once). Without a live one, back to sign-in.
 */
export const portalUser = (ctx: WebContext) => async (request: FastifyRequest, reply: FastifyReply) => {
  const token = sessionToken(request);
  if (token !== null) {
    try {
      request.principal = await userOfToken(ctx, request, token);
      return;
    } catch (err) {
      // Only a refused token ends the session; an unreachable identity is the error page's 503.
      if (!(err instanceof AppError) || err.status !== 401) throw err;
    }
  }
  endSession(reply);
  return reply.redirect(PORTAL_PATH, 303);
};
