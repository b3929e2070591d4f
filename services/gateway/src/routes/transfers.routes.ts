import {
  GetProcessorTokenBody,
  GetProcessorTokenResponse,
  MessageResponse,
  SubscriptionCancelBody,
  SubscriptionDetailsQuery,
  SubscriptionDetailsResponse,
  cancelSubscriptionByTransactionOp,
  getProcessorTokenOp,
  listTransactionsOp,
} from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { merchantAuth, userAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, AuthorizationHeader, ErrorBodySchema, errorResponses } from "./openapi-shared.ts";

/** Spec endpoints 8–10: the merchant's transfer, the consumer's transaction log and cancel. */
export async function transfersRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/api/merchants/payment_preprocess/get_processor_token",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Merchant: transfers"],
        summary: "Get Processor Token (executes the transfer, at most once per checkout)",
        headers: ApiKeyHeader,
        body: GetProcessorTokenBody,
        response: { 200: GetProcessorTokenResponse, ...errorResponses, 502: ErrorBodySchema },
      },
    },
    (request) => callService(ctx, request, getProcessorTokenOp, request.body),
  );

  r.get(
    "/api/merchants/manage_subscription/get_subscription_details",
    {
      preValidation: userAuth(ctx),
      schema: {
        tags: ["Consumer: subscriptions"],
        summary: "Get Subscription Details (the consumer's transaction log, newest first)",
        headers: AuthorizationHeader,
        querystring: SubscriptionDetailsQuery,
        response: { 200: SubscriptionDetailsResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listTransactionsOp, request.query),
  );

  r.post(
    "/api/merchants/manage_subscription/subscription_cancel",
    {
      preValidation: userAuth(ctx),
      schema: {
        tags: ["Consumer: subscriptions"],
        summary: "Subscription Cancel",
        headers: AuthorizationHeader,
        body: SubscriptionCancelBody,
        response: { 200: MessageResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, cancelSubscriptionByTransactionOp, request.body),
  );
}
