import type { FastifyRequest } from "fastify";

/**
 * What a mandate records of where it was accepted: the address as TRUST_PROXY resolves it and
 * the browser's user agent (at most 1,024 characters).
 */
export function mandateClient(request: FastifyRequest): { ip_address: string; user_agent: string } {
  return { ip_address: request.ip, user_agent: String(request.headers["user-agent"] ?? "").slice(0, 1024) };
}
