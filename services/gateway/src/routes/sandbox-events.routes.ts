import { TestEventBody, WebhookEvent, sendTestEventOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/** Test events per merchant per minute unless SANDBOX_EVENTS_PER_MINUTE says otherwise. */
export const DEFAULT_SANDBOX_EVENTS_PER_MINUTE = 30;

/**
 * Sandbox only (docs/api-notes.md, The sandbox): an event of a type with a sample object, delivered like any other.
 * One request fans out to every endpoint of the merchant (up to 16), so it has a budget per
 * merchant of its own (rate-limit.plugin.ts), stricter than the credential's.
 */
export async function sandboxEventsRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/api/sandbox/events",
    {
      preValidation: merchantAuth(ctx),
      config: { perMerchantPerMinute: ctx.sandboxEventsPerMinute },
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
