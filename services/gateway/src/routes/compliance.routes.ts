import { AnnualReview, AnnualReviewBody, FraudMonitoringEvidence, getFraudMonitoringOp, addAnnualReviewOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/** The evidence of the merchant's fraud-monitoring program (NACHA), and its yearly reviews (docs/guide/compliance.md). */
export async function complianceRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Merchant: compliance"];
  r.get(
    "/api/merchants/compliance/fraud_monitoring",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags,
        summary: "Fraud-monitoring evidence: the rules in force and since when, every review and its outcome, monthly return rates, the yearly reviews",
        headers: ApiKeyHeader,
        response: { 200: FraudMonitoringEvidence, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, getFraudMonitoringOp, {}),
  );
  r.post(
    "/api/merchants/compliance/annual_reviews",
    {
      preValidation: merchantAuth(ctx),
      schema: { tags, summary: "Record the yearly review of the fraud-monitoring program", headers: ApiKeyHeader, body: AnnualReviewBody, response: { 200: AnnualReview, ...errorResponses } },
    },
    (request) => callService(ctx, request, addAnnualReviewOp, request.body),
  );
}
