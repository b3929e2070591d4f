import { getMerchantOp, MerchantProfileBody, MerchantView, requireMerchant, updateMerchantProfileOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/** The merchant's profile: support contacts named in consumer notices, and how its debits are described (docs/api-notes.md). */
export async function merchantProfileRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Merchant: profile"];
  r.get(
    "/api/merchants/profile",
    {
      preValidation: merchantAuth(ctx),
      schema: { tags, summary: "The merchant, with its support contacts, statement descriptor and default transaction purpose", headers: ApiKeyHeader, response: { 200: MerchantView, ...errorResponses } },
    },
    (request) => callService(ctx, request, getMerchantOp, { merchant_id: requireMerchant(request.principal).merchantId }),
  );
  r.patch(
    "/api/merchants/profile",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags,
        summary: "Change the support contacts, the statement descriptor (10 characters, upper case) or the default transaction purpose",
        headers: ApiKeyHeader,
        body: MerchantProfileBody,
        response: { 200: MerchantView, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, updateMerchantProfileOp, request.body),
  );
}
