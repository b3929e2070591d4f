import {
  getPayoutOp,
  listPayoutsOp,
  PayoutDetail,
  PayoutListQuery,
  PayoutListResponse,
  PayoutParams,
  PayoutTransferSnapshot,
  runPayoutsOp,
  RunPayoutsBody,
  RunPayoutsResponse,
  simulatePayoutOp,
  SimulateTransferBody,
} from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/** Payouts (docs/decisions/0050-payouts.md): the list, and one payout with its reconciliation report. */
export async function payoutsRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    "/api/merchants/payouts",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Books"],
        summary: "List the merchant's payouts, newest first (`limit`, `starting_after`)",
        headers: ApiKeyHeader,
        querystring: PayoutListQuery,
        response: { 200: PayoutListResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listPayoutsOp, request.query),
  );
  typed.get(
    "/api/merchants/payouts/:id",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Books"],
        summary: "One payout with the balance transactions it contains (the reconciliation report)",
        headers: ApiKeyHeader,
        params: PayoutParams,
        response: { 200: PayoutDetail, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, getPayoutOp, request.params),
  );
}

/** Sandbox only: run the payout pass now for the calling merchant, and settle a payout's transfer. */
export async function sandboxPayoutsRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.post(
    "/api/sandbox/payouts/run",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Sandbox"],
        summary: "Run the payout pass now for the calling merchant",
        headers: ApiKeyHeader,
        body: RunPayoutsBody,
        response: { 200: RunPayoutsResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, runPayoutsOp, {}),
  );
  typed.post(
    "/api/sandbox/payouts/:id/simulate",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Sandbox"],
        summary: "Simulate a payout transfer's outcome (completed, or failed with an ACH return code)",
        headers: ApiKeyHeader,
        params: PayoutParams,
        body: SimulateTransferBody,
        response: { 200: PayoutTransferSnapshot, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, simulatePayoutOp, { ...request.body, payout_id: request.params.id }),
  );
}
