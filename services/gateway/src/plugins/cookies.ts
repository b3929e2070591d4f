import cookie from "@fastify/cookie";
import type { FastifyInstance } from "fastify";

/**
 * @fastify/cookie for the scope of the pages that keep a session in a cookie (the consumer
 * portal, the merchant dashboard) and their CSRF secrets. Registered in those scopes only:
 * the API never reads a cookie (its credentials travel in headers, so a cookie can never
 * authorize an API call), and app-wide the plugin's two hooks ran on every API request.
 */
export async function registerCookies(scope: FastifyInstance): Promise<void> {
  await scope.register(cookie);
}
