import { simulateTransferOp, SimulateTransferBody } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "../http/call-service.ts";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/**
 * Sandbox only (API.md §8): complete or fail one of the merchant's pending transfers. The path
 * takes a transaction_uuid, or a refund's refund_transaction_id (then the refund record answers).
 */
export async function sandboxTransfersRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/api/sandbox/transfers/:transaction_uuid/simulate",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Sandbox"],
        summary: "Simulate a transfer's or refund transfer's outcome (completed, or failed with an ACH return code)",
        headers: ApiKeyHeader,
        params: z.object({ transaction_uuid: z.string().min(1).max(64) }),
        body: SimulateTransferBody,
        response: { 200: simulateTransferOp.response, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, simulateTransferOp, { ...request.body, transaction_uuid: request.params.transaction_uuid }),
  );
}
