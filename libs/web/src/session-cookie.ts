import type { CookieSerializeOptions } from "@fastify/cookie";
import type { FastifyRequest } from "fastify";
import type {} from "./cookies.ts";

/**
 * A session cookie of the pages (the dashboard's, the portal's): only the server reads it
 * (httpOnly), sent on top-level navigations from other sites but not on their forms or fetches
 * (SameSite=Lax), Secure when the request's cookies are (cookies.ts), and only to the app's
 * paths. Without a Max-Age it ends with the browser session.
 */
export function sessionCookieOptions(request: FastifyRequest, path: string, maxAgeSeconds?: number): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: "lax",
    secure: request.cookieSecure,
    path,
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  };
}
