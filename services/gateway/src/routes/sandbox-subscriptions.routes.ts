import { AdvanceSubscriptionClockBody, advanceSubscriptionClockOp, TransactionRecord } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/**
 * Sandbox only (docs/api-notes.md, Subscriptions and renewals): the test clock of one of the merchant's subscriptions,
 * named by any of its transaction records. Moves it forward and runs the charges and retries
 * due by then; answers the subscription's records. Renewals stay pending until simulated.
 */
export async function sandboxSubscriptionsRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/api/sandbox/subscriptions/:transaction_uuid/advance",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Sandbox"],
        summary: "Advance a subscription's test clock: run every renewal charge and retry due by `to`",
        headers: ApiKeyHeader,
        params: z.object({ transaction_uuid: z.string().min(1).max(64) }),
        body: AdvanceSubscriptionClockBody,
        response: { 200: z.array(TransactionRecord), ...errorResponses },
      },
    },
    (request) => callService(ctx, request, advanceSubscriptionClockOp, { ...request.body, transaction_uuid: request.params.transaction_uuid }),
  );
}
