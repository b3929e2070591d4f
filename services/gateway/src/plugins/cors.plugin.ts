import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";

/** The routes a consumer's browser calls: identity, bank linking, and the sandbox picker. */
const CONSUMER_PREFIXES = ["/api/verify_user/", "/api/consumers/", "/api/sandbox/consumers/"];

export function isConsumerPath(url: string): boolean {
  return CONSUMER_PREFIXES.some((prefix) => url.startsWith(prefix));
}

/**
 * CORS for merchants that build their own consumer page (CORS_ORIGINS): only the consumer
 * routes, only the listed origins, no cookies (credentials travel in headers). Merchant, admin
 * and sandbox merchant routes never answer a browser's cross-origin call: an api-key does not
 * belong in a browser. Without CORS_ORIGINS nothing is registered.
 */
export async function registerConsumerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  await app.register(cors, {
    delegator: (request, callback) => {
      if (!isConsumerPath(request.url)) return callback(null, { origin: false });
      callback(null, {
        origin: [...origins],
        methods: ["GET", "POST"],
        allowedHeaders: ["authorization", "link-token", "content-type", "idempotency-key", "x-request-id"],
        exposedHeaders: ["x-request-id", "retry-after", "idempotent-replayed"],
        maxAge: 600,
      });
    },
  });
}
