import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/**
 * The policy of `/docs` (swagger-ui sets it on its own routes only). Its page loads its scripts
 * from files under /docs (no inline script, so `'self'` suffices), while its React components
 * write inline styles, hence `'unsafe-inline'` for styles only. Nobody may frame the page
 * (clickjacking). swagger-ui's default policy is not used: its `upgrade-insecure-requests`
 * would break the page on a plain-http gateway. The online validator badge is off
 * (`validatorUrl: null`): it would send the spec's address to validator.swagger.io.
 */
const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * `/openapi.json` is generated from the same zod schemas that validate requests, so the
 * reference cannot drift from the behaviour; `/docs` renders it (assets ship in the package).
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: "Payrail API",
        version: "0.1.0",
        description: "Bank-transfer checkout, subscription and refund service. Errors use the body `{error: {type, code, message, param, request_id}}`.",
      },
      components: {
        securitySchemes: {
          apiKey: { type: "apiKey", in: "header", name: "api-key" },
          authToken: { type: "apiKey", in: "header", name: "Authorization" },
          adminToken: { type: "apiKey", in: "header", name: "x-admin-token" },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/docs", staticCSP: DOCS_CSP, uiConfig: { validatorUrl: null } });
  app.get("/openapi.json", { schema: { hide: true } as Record<string, unknown> }, async () => app.swagger());
}
