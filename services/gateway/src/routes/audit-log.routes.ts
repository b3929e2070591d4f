import { AuditLogListQuery, AuditLogListResponse, listAuditLogOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/** The audit log (docs/decisions/0054-audit-log.md): who changed what of the merchant's, and from where. */
export async function auditLogRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/merchants/audit_log",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Audit log"],
        summary: "List the merchant's audit log, newest first (`action`, `from`, `to`, `limit`, `starting_after`)",
        headers: ApiKeyHeader,
        querystring: AuditLogListQuery,
        response: { 200: AuditLogListResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listAuditLogOp, request.query),
  );
}
