import { getReturnRatesOp, ReturnRatesResponse } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/** Return rates (docs/api-notes.md, Returns and blocked bank accounts): the merchant's ACH return rates against NACHA's thresholds. */
export async function returnRatesRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/merchants/return_rates",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Merchant: transfers"],
        summary: "Return rates of the last 60 days: unauthorized (NACHA 0.5 %), administrative (3 %), overall (15 %)",
        headers: ApiKeyHeader,
        response: { 200: ReturnRatesResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, getReturnRatesOp, {}),
  );
}
