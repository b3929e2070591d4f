import { NoticeListQuery, NoticeListResponse, listNoticesOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/** Consumer notices (docs/decisions/0009-consumer-notices.md): what Payrail told the merchant's consumers. */
export async function noticesRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/merchants/notices",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Notices"],
        summary: "List the notices sent to the merchant's consumers, newest first (`checkout_id`, `limit`, `starting_after`)",
        headers: ApiKeyHeader,
        querystring: NoticeListQuery,
        response: { 200: NoticeListResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listNoticesOp, request.query),
  );
}
