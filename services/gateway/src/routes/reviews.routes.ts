import { decideReviewOp, getReviewOp, listReviewsOp, Review, ReviewIdParam, ReviewListQuery, ReviewListResponse } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/** Fraud reviews (docs/decisions/0010-fraud-monitoring.md): debits a risk rule held, and the merchant's decision on each. */
export async function reviewsRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Merchant: fraud reviews"];
  r.get(
    "/api/merchants/reviews",
    {
      preValidation: merchantAuth(ctx),
      schema: { tags, summary: "The merchant's fraud reviews, newest first (`status`, `limit`, `starting_after`)", headers: ApiKeyHeader, querystring: ReviewListQuery, response: { 200: ReviewListResponse, ...errorResponses } },
    },
    (request) => callService(ctx, request, listReviewsOp, request.query),
  );
  r.get(
    "/api/merchants/reviews/:id",
    {
      preValidation: merchantAuth(ctx),
      schema: { tags, summary: "One fraud review, with the rules that fired and their facts", headers: ApiKeyHeader, params: ReviewIdParam, response: { 200: Review, ...errorResponses } },
    },
    (request) => callService(ctx, request, getReviewOp, { review_id: request.params.id }),
  );
  for (const decision of ["approve", "cancel"] as const) {
    r.post(
      `/api/merchants/reviews/:id/${decision}`,
      {
        preValidation: merchantAuth(ctx),
        schema: {
          tags,
          summary: decision === "approve" ? "Approve a held debit: it is sent to the bank, once" : "Cancel a held debit: no money moves, the checkout (or renewal) ends",
          headers: ApiKeyHeader,
          params: ReviewIdParam,
          response: { 200: Review, ...errorResponses },
        },
      },
      (request) => callService(ctx, request, decideReviewOp, { review_id: request.params.id, decision }),
    );
  }
}
