import { NoticeListQuery, SandboxNoticeListResponse, listSandboxNoticesOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/** Sandbox only: the outbox of consumer notices, with what each said. */
export async function sandboxNoticesRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/sandbox/notices",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Sandbox"],
        summary: "The sandbox outbox: the merchant's consumer notices with their text (`checkout_id`, `limit`, `starting_after`)",
        headers: ApiKeyHeader,
        querystring: NoticeListQuery,
        response: { 200: SandboxNoticeListResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listSandboxNoticesOp, request.query),
  );
}
