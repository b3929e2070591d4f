import { cancelSubscriptionForMerchantOp, CheckoutIdParam, UpdateSubscriptionBody, UpdateSubscriptionResult, updateSubscriptionOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/** A merchant changes the amount of, or cancels, one of its subscriptions (the dashboard's Cancel uses the same operation). */
export async function merchantSubscriptionsRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/api/merchants/subscriptions/:checkout_id/cancel",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Merchant: transfers"],
        summary: "Cancel a subscription as its merchant: no further renewal, its mandate revoked",
        headers: ApiKeyHeader,
        params: CheckoutIdParam,
        response: { 200: z.object({ checkout_id: z.string(), subscription_status: z.literal("cancelled") }), ...errorResponses },
      },
    },
    (request) => callService(ctx, request, cancelSubscriptionForMerchantOp, { checkout_id: request.params.checkout_id }),
  );
  app.withTypeProvider<ZodTypeProvider>().post(
    "/api/merchants/subscriptions/:checkout_id",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Merchant: transfers"],
        summary: "Change a subscription's amount, from the first renewal at least 10 days away",
        headers: ApiKeyHeader,
        params: CheckoutIdParam,
        body: UpdateSubscriptionBody,
        response: { 200: UpdateSubscriptionResult, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, updateSubscriptionOp, { checkout_id: request.params.checkout_id, amount: request.body.amount }),
  );
}
