import {
  BalanceQuery,
  BalanceResponse,
  BalanceTransactionListQuery,
  BalanceTransactionListResponse,
  ExportQuery,
  getBalanceOp,
  listBalanceTransactionsOp,
  listMerchantTransactionsOp,
  listMerchantRefundsOp,
  listCheckoutsOp,
  centsToDecimal,
  toCents,
  type BalanceTransaction,
  type CheckoutView,
  type RefundRecord,
  type TransactionRecord,
} from "@payrail/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import { csvStream } from "../http/csv-stream.ts";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/** The columns of balance_transactions.csv: the JSON list's fields, in its order. */
export const BALANCE_TRANSACTION_COLUMNS = ["id", "type", "amount", "currency", "status", "source", "created_at", "available_at", "payout_id"] as const;

/** Rows per RPC page of an export: the list's largest page. */
const EXPORT_PAGE = 100;

/** The columns of transactions.csv: the transaction record's, amounts as decimals. */
export const TRANSACTION_COLUMNS = [
  "transaction_uuid",
  "id",
  "checkout",
  "checkout_id",
  "amount",
  "amount_refunded",
  "transaction_status",
  "company_entry_description",
  "failure_code",
  "failure_reason",
  "returned_at",
  "transaction_date_time",
  "created_at",
  "updated_at",
] as const;

/** The columns of refunds.csv: the refund record's, `amount` as a decimal. */
export const REFUND_COLUMNS = [
  "id",
  "transaction_uuid",
  "checkout",
  "checkout_id",
  "amount",
  "currency",
  "status",
  "reason",
  "refund_transaction_id",
  "failure_code",
  "failure_reason",
  "created_at",
  "updated_at",
] as const;

/**
 * The columns of checkouts.csv: who and what the checkout is for, where it stands, and its first
 * charge; nested fields flattened (`amounts.total` as `amount`, `transfer.status` as
 * `transfer_status`). The full body stays Get Checkout's.
 */
export const CHECKOUT_COLUMNS = [
  "id",
  "merchant_checkout_id",
  "merchant_user_id",
  "status",
  "is_subscription",
  "plan_type",
  "subscription_status",
  "amount",
  "currency",
  "amount_refunded",
  "transaction_uuid",
  "transfer_status",
  "mandate_id",
  "next_charge_at",
  "created_at",
  "updated_at",
] as const;

/** A checkout's row in CHECKOUT_COLUMNS: its nested fields flattened, then as any record's row. */
function checkoutRow(c: CheckoutView): (string | null)[] {
  const amounts = (c["amounts"] ?? {}) as { total?: unknown; currency?: unknown };
  return checkoutColumns({ ...c, amount: amounts.total, currency: amounts.currency, transaction_uuid: c.transfer?.transaction_uuid, transfer_status: c.transfer?.status });
}

const AMOUNT_COLUMNS: ReadonlySet<string> = new Set(["amount", "amount_refunded"]);

/** A record's row in `columns`: amounts (JSON numbers) as two-decimal text, absent or null as empty. */
function recordRow(columns: readonly string[]) {
  return (record: object): (string | null)[] =>
    columns.map((column) => {
      const value = (record as Record<string, unknown>)[column];
      if (AMOUNT_COLUMNS.has(column)) return centsToDecimal(toCents(value) ?? Math.round(Number(value) * 100));
      return value === undefined || value === null ? null : String(value);
    });
}

const checkoutColumns = recordRow(CHECKOUT_COLUMNS);

/**
 * Streams one export: the first page is fetched before the reply starts (a bad filter is still
 * a 4xx with the error body), then each page after the last row of the one before.
 */
async function csvExport<R>(
  reply: FastifyReply,
  filename: string,
  columns: readonly string[],
  source: { page(after?: string): Promise<{ data: R[]; has_more: boolean }>; row(record: R): (string | null)[]; cursor(record: R): string },
): Promise<void> {
  const first = await source.page();
  const body = csvStream(
    columns,
    first,
    (p) => p.data.map((record) => source.row(record)),
    async (p) => (p.has_more && p.data.length > 0 ? source.page(source.cursor(p.data[p.data.length - 1]!)) : null),
  );
  // A stream is sent as it is: the string schema documents the body, it does not serialise it.
  reply.type("text/csv; charset=utf-8").header("content-disposition", `attachment; filename="${filename}"`).send(body as unknown as string);
}

const CsvBody = z.string().describe("RFC 4180 CSV: one header row, then one row per record, CRLF line ends");

/** What every export route takes and answers: `from`/`to`, and CSV. */
function exportSchema(summary: string) {
  return { tags: ["Books"], summary, produces: ["text/csv"], headers: ApiKeyHeader, querystring: ExportQuery, response: { 200: CsvBody, ...errorResponses } };
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
        summary: "List the merchant's balance transactions, newest first (`from`, `to`, `type`, `payout_id`, `limit`, `starting_after`)",
        headers: ApiKeyHeader,
        querystring: BalanceTransactionListQuery,
        response: { 200: BalanceTransactionListResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listBalanceTransactionsOp, request.query),
  );
  const exportRoute = <R>(
    name: string,
    what: string,
    columns: readonly string[],
    page: (request: FastifyRequest, query: ExportQuery, after: string | undefined) => Promise<{ data: R[]; has_more: boolean }>,
    row: (record: R) => (string | null)[],
    cursor: (record: R) => string,
  ) =>
    typed.get(
      `/api/merchants/exports/${name}`,
      { preValidation: merchantAuth(ctx), schema: exportSchema(`Export the merchant's ${what} as CSV, newest first (\`from\`, \`to\`)`) },
      async (request, reply) => {
        await csvExport(reply, name, columns, { page: (after) => page(request, request.query, after), row, cursor });
        // The reply itself: fastify then waits for the stream instead of answering an empty body.
        return reply;
      },
    );
  const pageOf = (after: string | undefined) => ({ limit: EXPORT_PAGE, ...(after ? { starting_after: after } : {}) });
  exportRoute(
    "balance_transactions.csv",
    "balance transactions",
    BALANCE_TRANSACTION_COLUMNS,
    (request, query, after) => callService(ctx, request, listBalanceTransactionsOp, { ...query, ...pageOf(after) }),
    (record: BalanceTransaction) => BALANCE_TRANSACTION_COLUMNS.map((column) => record[column]),
    (record) => record.id,
  );
  exportRoute(
    "transactions.csv",
    "transaction records",
    TRANSACTION_COLUMNS,
    (request, query, after) => callService(ctx, request, listMerchantTransactionsOp, { ...query, ...pageOf(after) }),
    recordRow(TRANSACTION_COLUMNS),
    (record: TransactionRecord) => record.transaction_uuid,
  );
  exportRoute(
    "checkouts.csv",
    "checkouts",
    CHECKOUT_COLUMNS,
    (request, query, after) => callService(ctx, request, listCheckoutsOp, { ...query, ...pageOf(after) }),
    checkoutRow,
    (record: CheckoutView) => record.id,
  );
  exportRoute(
    "refunds.csv",
    "refunds",
    REFUND_COLUMNS,
    (request, query, after) => callService(ctx, request, listMerchantRefundsOp, { ...query, ...pageOf(after) }),
    recordRow(REFUND_COLUMNS),
    (record: RefundRecord) => record.id,
  );
}
