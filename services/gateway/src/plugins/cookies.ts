import cookie from "@fastify/cookie";
import type { FastifyInstance } from "fastify";

/**
 * @fastify/cookie for the whole app, registered once: the pages that keep a session in a
 * cookie (the consumer portal, the merchant dashboard) and their CSRF secrets read and set
 * cookies through it. The API itself never reads a cookie: its credentials travel in headers,
 * so a cookie can never authorize an API call.
 */
export async function registerCookies(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
}
