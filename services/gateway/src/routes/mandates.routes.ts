import { Mandate, MandateIdParam, getMandateOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/** Mandates (docs/api-notes.md, Mandates): the merchant's proof of each debit authorization. */
export async function mandatesRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/api/merchants/mandates/:mandate_id",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Mandates"],
        summary: "Get Mandate: one debit authorization of the merchant's checkouts",
        headers: ApiKeyHeader,
        params: MandateIdParam,
        response: { 200: Mandate, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, getMandateOp, request.params),
  );
}
