import { buildApp } from "@payrail/gateway";
import { createInProcessTransport } from "@payrail/messaging";
import { silentLogger } from "@payrail/runtime";

/**
 * The gateway's OpenAPI document, without starting any service: it depends only on the route
 * schemas. The sandbox and admin routes are included, so the reference covers every route a
 * deployment can have. Exactly what `/openapi.json` serves.
 */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const logger = silentLogger();
  const transport = await createInProcessTransport({ logger });
  const app = await buildApp({
    transport,
    logger,
    adminToken: "openapi-document",
    apiKeyCacheMs: 0,
    rateLimitPerMinute: 1,
    services: [],
    sandbox: true,
  });
  try {
    const served = await app.inject({ method: "GET", url: "/openapi.json" });
    return served.json<Record<string, unknown>>();
  } finally {
    await app.close();
    await transport.close();
  }
}
