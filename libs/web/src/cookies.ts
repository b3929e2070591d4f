import cookie from "@fastify/cookie";
import type { FastifyInstance, FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    /** Whether the cookies set in answer to this request are `Secure` (registerCookies). */
    readonly cookieSecure: boolean;
  }
}

/**
 * @fastify/cookie for the scope of the pages that keep a session in a cookie (the consumer
 * portal, the merchant dashboard) and their CSRF secrets. Registered in those scopes only:
 * the API never reads a cookie (its credentials travel in headers, so a cookie can never
 * authorize an API call), and app-wide the plugin's two hooks ran on every API request.
 *
 * Every cookie of those scopes is `Secure` when the request came over https, directly or as a
 * trusted proxy says (`request.protocol` believes X-Forwarded-Proto only from TRUST_PROXY's
 * proxies), and always with `alwaysSecure` (production): there the browser keeps the session
 * off plain http even when the proxy in front is not declared.
 */
export async function registerCookies(scope: FastifyInstance, options: { alwaysSecure: boolean }): Promise<void> {
  await scope.register(cookie);
  const { alwaysSecure } = options;
  scope.decorateRequest("cookieSecure", {
    getter(this: FastifyRequest) {
      return alwaysSecure || this.protocol === "https";
    },
  });
}
