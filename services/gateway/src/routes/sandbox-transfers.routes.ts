import { RefundRecord, simulateRefundTransferOp, simulateTransferOp, SimulateTransferBody, TransactionRecord } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/**
 * Sandbox only (docs/api-notes.md, The sandbox): complete or fail one of the merchant's pending transfers. The path
 * takes a transaction_uuid (`sc-…`: payments answers the transaction record), or a refund's
 * refund_transaction_id (the provider's transfer id: the refunds service applies the payout's
 * outcome and answers the refund record).
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
        response: { 200: z.union([TransactionRecord, RefundRecord]), ...errorResponses },
      },
    },
    (request) => {
      const id = request.params.transaction_uuid;
      if (id.startsWith("sc-")) return callService(ctx, request, simulateTransferOp, { ...request.body, transaction_uuid: id });
      return callService(ctx, request, simulateRefundTransferOp, { ...request.body, refund_transaction_id: id });
    },
  );
}
