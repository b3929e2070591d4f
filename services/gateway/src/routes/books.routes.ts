import {
  BalanceQuery,
  BalanceResponse,
  BalanceTransactionListQuery,
  BalanceTransactionListResponse,
  ExportQuery,
  getBalanceOp,
  listBalanceTransactionsOp,
  type BalanceTransaction,
} from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "../http/call-service.ts";
import { csvStream } from "../http/csv-stream.ts";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/** The columns of balance_transactions.csv: the JSON list's fields, in its order. */
export const BALANCE_TRANSACTION_COLUMNS = ["id", "type", "amount", "currency", "status", "source", "created_at", "available_at", "payout_id"] as const;

/** Rows per RPC page of an export: the list's largest page. */
const EXPORT_PAGE = 100;

const CsvBody = z.string().describe("RFC 4180 CSV: one header row, then one row per record, CRLF line ends");

/** The merchant's books (docs/decisions/0040-merchant-books.md): balance, balance transactions, exports. */
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
        summary: "List the merchant's balance transactions, newest first (`from`, `to`, `type`, `payout_id`, `limit`, `starting_after`)",
        headers: ApiKeyHeader,
        querystring: BalanceTransactionListQuery,
        response: { 200: BalanceTransactionListResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listBalanceTransactionsOp, request.query),
  );
  typed.get(
    "/api/merchants/exports/balance_transactions.csv",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Books"],
        summary: "Export the merchant's balance transactions as CSV, newest first (`from`, `to`)",
        produces: ["text/csv"],
        headers: ApiKeyHeader,
        querystring: ExportQuery,
        response: { 200: CsvBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      const page = (after?: string) =>
        callService(ctx, request, listBalanceTransactionsOp, { ...request.query, limit: EXPORT_PAGE, ...(after ? { starting_after: after } : {}) });
      const first = await page();
      const body = csvStream(
        BALANCE_TRANSACTION_COLUMNS,
        first,
        (p) => p.data.map((row: BalanceTransaction) => BALANCE_TRANSACTION_COLUMNS.map((column) => row[column])),
        async (p) => (p.has_more ? page(p.data[p.data.length - 1]!.id) : null),
      );
      // A stream is sent as it is: the string schema documents the body, it does not serialise it.
      return reply.type("text/csv; charset=utf-8").header("content-disposition", 'attachment; filename="balance_transactions.csv"').send(body as unknown as string);
    },
  );
}
