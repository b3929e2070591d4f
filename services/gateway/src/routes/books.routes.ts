import {
  AmountExportQuery,
  BalanceQuery,
  BalanceResponse,
  BalanceTransactionExportQuery,
  BalanceTransactionListQuery,
  BalanceTransactionListResponse,
  ExportQuery,
  getBalanceOp,
  listBalanceTransactionsOp,
} from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService, sendCsvExport } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

const CsvBody = z.string().describe("RFC 4180 CSV: one header row, then one row per record, CRLF line ends");

/** What every export route takes (`from`/`to`, and the others their list's filters) and answers: CSV. */
function exportSchema(summary: string, querystring: z.ZodType) {
  return { tags: ["Books"], summary, produces: ["text/csv"], headers: ApiKeyHeader, querystring, response: { 200: CsvBody, ...errorResponses } };
}

/** The merchant's books (docs/decisions/0042-merchant-books.md): balance, balance transactions, exports. */
export async function booksRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    "/api/merchants/balance",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Books"],
        summary: "The merchant's balance: available and pending",
        headers: ApiKeyHeader,
        querystring: BalanceQuery,
        response: { 200: BalanceResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, getBalanceOp, {}),
  );
  typed.get(
    "/api/merchants/balance_transactions",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Books"],
        summary: "List the merchant's balance transactions, newest first (`from`, `to`, `amount_gte`, `amount_lte`, `type`, `payout_id`, `limit`, `starting_after`)",
        headers: ApiKeyHeader,
        querystring: BalanceTransactionListQuery,
        response: { 200: BalanceTransactionListResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listBalanceTransactionsOp, request.query),
  );
  const exportRoute = (name: string, summary: string, querystring: z.ZodType = ExportQuery) =>
    typed.get(`/api/merchants/exports/${name}`, { preValidation: merchantAuth(ctx), schema: exportSchema(summary, querystring) }, async (request, reply) => {
      // The reply itself: fastify then waits for the stream instead of answering an empty body.
      await sendCsvExport(ctx, request, reply, name, request.query as BalanceTransactionExportQuery);
      return reply;
    });
  exportRoute(
    "balance_transactions.csv",
    "Export the merchant's balance transactions as CSV, newest first (`from`, `to`, `amount_gte`, `amount_lte`, `type`, `payout_id`)",
    BalanceTransactionExportQuery,
  );
  exportRoute("transactions.csv", "Export the merchant's transaction records as CSV, newest first (`from`, `to`)");
  exportRoute("checkouts.csv", "Export the merchant's checkouts as CSV, newest first (`from`, `to`, `amount_gte`, `amount_lte`)", AmountExportQuery);
  exportRoute("refunds.csv", "Export the merchant's refunds as CSV, newest first (`from`, `to`, `amount_gte`, `amount_lte`)", AmountExportQuery);
}
