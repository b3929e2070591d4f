import { TestEventBody, WebhookEvent, sendTestEventOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "../http/call-service.ts";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/** Sandbox only (API.md §11): an event of a type with a sample object, delivered like any other. */
export async function sandboxEventsRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/api/sandbox/events",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Sandbox"],
        summary: "Send a test event of a type (`{\"type\": \"transaction.completed\"}`) to the merchant's endpoints",
        headers: ApiKeyHeader,
        body: TestEventBody,
        response: { 200: WebhookEvent, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, sendTestEventOp, request.body),
  );
}
