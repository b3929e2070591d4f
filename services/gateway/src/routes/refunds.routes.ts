import {
  ConsumerRefundListQuery,
  ConsumerRefundListResponse,
  ConsumerRefundRequestBody,
  InitiateRefundBody,
  MerchantRefundDecisionBody,
  MerchantRefundListQuery,
  MerchantRefundListResponse,
  RefundAnswer,
  RefundIdParam,
  RefundRecord,
  decideRefundOp,
  getMerchantRefundOp,
  initiateRefundTransferOp,
  listMerchantRefundsOp,
  listRefundsOp,
  requestRefundOp,
} from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { merchantAuth, merchantOrOperatorAuth, userAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, AuthorizationHeader, ErrorBodySchema, errorResponses } from "./openapi-shared.ts";

const MerchantOrOperatorHeaders = z.looseObject({
  "api-key": z.string().optional().describe("The merchant's API key (decides when both headers are sent)"),
  authorization: z.string().optional().describe("An operator's auth token: `Token <auth_token>`"),
});
const responses = { ...errorResponses, 403: ErrorBodySchema };

/**
 * Spec endpoints 11–14: the consumer asks for and lists refunds; the merchant decides and pays
 * out. Plus the merchant's own view of its refunds (docs/api-notes.md, Refunds).
 */
export async function refundsRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Refunds"];

  r.post(
    "/api/merchants/refund_request/consumer_refund_request",
    {
      preValidation: userAuth(ctx),
      schema: {
        tags,
        summary: "Consumer Refund Request (all or `amount` of what is still refundable of one of the consumer's transactions)",
        headers: AuthorizationHeader,
        body: ConsumerRefundRequestBody,
        response: { 200: RefundAnswer, ...responses },
      },
    },
    (request) => callService(ctx, request, requestRefundOp, request.body),
  );

  r.get(
    "/api/merchants/refund_request/consumer_refund_list",
    {
      preValidation: userAuth(ctx),
      schema: {
        tags,
        summary: "Consumer Refund List (the consumer's refunds, newest first)",
        headers: AuthorizationHeader,
        querystring: ConsumerRefundListQuery,
        response: { 200: ConsumerRefundListResponse, ...responses },
      },
    },
    (request) => callService(ctx, request, listRefundsOp, request.query),
  );

  r.post(
    "/api/merchants/refund_request/merchant_status_refund_request",
    {
      preValidation: merchantOrOperatorAuth(ctx),
      schema: {
        tags,
        summary: "Merchant Status Refund Request (Approved or Rejected, once)",
        headers: MerchantOrOperatorHeaders,
        body: MerchantRefundDecisionBody,
        response: { 200: RefundAnswer, ...responses },
      },
    },
    (request) => callService(ctx, request, decideRefundOp, request.body),
  );

  r.post(
    "/api/merchants/refund_request/initiate_refund_transfer",
    {
      preValidation: merchantOrOperatorAuth(ctx),
      schema: {
        tags,
        summary: "Initiate Refund Transfer (one transfer back to the consumer, however often called; a failed refund gets a new one)",
        headers: MerchantOrOperatorHeaders,
        body: InitiateRefundBody,
        response: { 200: RefundAnswer, ...responses, 502: ErrorBodySchema },
      },
    },
    (request) => callService(ctx, request, initiateRefundTransferOp, request.body),
  );

  r.get(
    "/api/merchants/refunds",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags,
        summary: "List the merchant's refunds, newest first (`status`, `transaction_uuid`, `from`, `to`, `amount_gte`, `amount_lte`, `limit`, `starting_after`)",
        headers: ApiKeyHeader,
        querystring: MerchantRefundListQuery,
        response: { 200: MerchantRefundListResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listMerchantRefundsOp, request.query),
  );

  r.get(
    "/api/merchants/refunds/:id",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags,
        summary: "One refund of the merchant",
        headers: ApiKeyHeader,
        params: RefundIdParam,
        response: { 200: RefundRecord, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, getMerchantRefundOp, request.params),
  );
}
