import type { FastifyReply } from "fastify";

/**
 * Sends a whole HTML page under its Content-Security-Policy headers, never cached: every page
 * shows the signed-in person's own records or a one-time state (the dashboard, the portal).
 */
export function sendHtml(reply: FastifyReply, status: number, headers: Record<string, string>, document: string): FastifyReply {
  return reply.code(status).headers(headers).header("cache-control", "no-store").type("text/html; charset=utf-8").send(document);
}
