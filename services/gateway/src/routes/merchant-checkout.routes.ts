import {
  CheckoutIdParam,
  CheckoutView,
  CreateCheckoutBody,
  CreateCheckoutResponse,
  ListCheckoutsQuery,
  ListCheckoutsResponse,
  MerchantLinkTokenResponse,
  createCheckoutOp,
  generateLinkTokenOp,
  getCheckoutOp,
  listCheckoutsOp,
} from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { answerFromService, callService, hostedPageUrl } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";
import { merchantAuth } from "../auth/hooks.ts";

/** Spec endpoints 1–3 (and the list form of 2), authenticated by `api-key`. */
export async function merchantCheckoutRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Merchant: checkout"];
  const preValidation = merchantAuth(ctx);

  r.post(
    "/api/merchants/checkout",
    {
      preValidation,
      schema: {
        tags,
        summary: "Create Checkout",
        headers: ApiKeyHeader,
        body: CreateCheckoutBody,
        response: { 200: CreateCheckoutResponse, ...errorResponses },
      },
    },
    (request, reply) => answerFromService(ctx, request, reply, createCheckoutOp, { checkout: request.body }),
  );

  r.get(
    "/api/merchants/checkout",
    {
      preValidation,
      schema: {
        tags,
        summary: "List Checkouts (Get Checkout without an id)",
        headers: ApiKeyHeader,
        querystring: ListCheckoutsQuery,
        response: { 200: ListCheckoutsResponse, ...errorResponses },
      },
    },
    (request, reply) => answerFromService(ctx, request, reply, listCheckoutsOp, request.query),
  );

  r.get(
    "/api/merchants/checkout/:checkout_id",
    {
      preValidation,
      schema: {
        tags,
        summary: "Get Checkout",
        headers: ApiKeyHeader,
        params: CheckoutIdParam,
        response: { 200: CheckoutView, ...errorResponses },
      },
    },
    (request, reply) => answerFromService(ctx, request, reply, getCheckoutOp, request.params),
  );

  r.get(
    "/api/merchants/checkout/:checkout_id/generate_link_token",
    {
      preValidation,
      schema: {
        tags,
        summary: "Generate Link Token",
        headers: ApiKeyHeader,
        params: CheckoutIdParam,
        response: { 200: MerchantLinkTokenResponse.extend({ url: z.string().describe("The consumer's hosted page for this checkout") }), ...errorResponses },
      },
    },
    async (request) => {
      const token = await callService(ctx, request, generateLinkTokenOp, request.params);
      return { ...token, url: hostedPageUrl(ctx, request, token.checkout_id, token.link_token) };
    },
  );
}
