import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

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
  await app.register(swaggerUi, { routePrefix: "/docs" });
  app.get("/openapi.json", { schema: { hide: true } as Record<string, unknown> }, async () => app.swagger());
}
