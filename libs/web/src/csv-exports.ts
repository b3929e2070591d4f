import {
  centsToDecimal,
  listBalanceTransactionsOp,
  listCheckoutsOp,
  listMerchantRefundsOp,
  listMerchantTransactionsOp,
  toCents,
  type BalanceTransaction,
  type AmountExportQuery,
  type BalanceTransactionExportQuery,
  type CheckoutView,
  type ExportQuery,
  type RefundRecord,
  type TransactionRecord,
} from "@payrail/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { callService } from "./call-service.ts";
import { csvStream } from "./csv-stream.ts";
import type { WebContext } from "./web-context.ts";

/** The columns of balance_transactions.csv: the JSON list's fields, in its order. */
export const BALANCE_TRANSACTION_COLUMNS = ["id", "type", "amount", "currency", "status", "source", "created_at", "available_at", "payout_id"] as const;

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

/** Rows per RPC page of an export: the lists' largest page. */
const EXPORT_PAGE = 100;

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

/** A checkout's row in CHECKOUT_COLUMNS: its nested fields flattened, then as any record's row. */
function checkoutRow(c: CheckoutView): (string | null)[] {
  const amounts = (c["amounts"] ?? {}) as { total?: unknown; currency?: unknown };
  return checkoutColumns({ ...c, amount: amounts.total, currency: amounts.currency, transaction_uuid: c.transfer?.transaction_uuid, transfer_status: c.transfer?.status });
}

/** One export: its columns, a page of its records after a cursor (the list operation under the caller's principal), a record's row and cursor. */
interface CsvExport<R> {
  columns: readonly string[];
  page(ctx: WebContext, request: FastifyRequest, query: BalanceTransactionExportQuery, after: string | undefined): Promise<{ data: R[]; has_more: boolean }>;
  row(record: R): (string | null)[];
  cursor(record: R): string;
}

const pageOf = (after: string | undefined) => ({ limit: EXPORT_PAGE, ...(after ? { starting_after: after } : {}) });
const windowOf = (query: ExportQuery): ExportQuery => ({ ...(query.from ? { from: query.from } : {}), ...(query.to ? { to: query.to } : {}) });
/** The window and the amount range: what checkouts.csv and refunds.csv pass to their lists. */
const amountsOf = (query: AmountExportQuery): AmountExportQuery => ({
  ...windowOf(query),
  ...(query.amount_gte ? { amount_gte: query.amount_gte } : {}),
  ...(query.amount_lte ? { amount_lte: query.amount_lte } : {}),
});

const exportOf = <R>(e: CsvExport<R>): CsvExport<unknown> => e as CsvExport<unknown>;

/**
 * The four exports by file name, the API's and the dashboard's buttons alike: each is its list
 * operation paged through, so an export holds exactly the rows the list shows for its filters.
 * transactions.csv takes `from`/`to`; checkouts.csv and refunds.csv the amount range too; balance_transactions.csv
 * also its list's `type` and `payout_id`.
 */
export const CSV_EXPORTS: ReadonlyMap<string, CsvExport<unknown>> = new Map([
  [
    "balance_transactions.csv",
    exportOf<BalanceTransaction>({
      columns: BALANCE_TRANSACTION_COLUMNS,
      page: (ctx, request, query, after) => callService(ctx, request, listBalanceTransactionsOp, { ...query, ...pageOf(after) }),
      row: (record) => BALANCE_TRANSACTION_COLUMNS.map((column) => record[column]),
      cursor: (record) => record.id,
    }),
  ],
  [
    "transactions.csv",
    exportOf<TransactionRecord>({
      columns: TRANSACTION_COLUMNS,
      page: (ctx, request, query, after) => callService(ctx, request, listMerchantTransactionsOp, { ...windowOf(query), ...pageOf(after) }),
      row: recordRow(TRANSACTION_COLUMNS),
      cursor: (record) => record.transaction_uuid,
    }),
  ],
  [
    "checkouts.csv",
    exportOf<CheckoutView>({
      columns: CHECKOUT_COLUMNS,
      page: (ctx, request, query, after) => callService(ctx, request, listCheckoutsOp, { ...amountsOf(query), ...pageOf(after) }),
      row: checkoutRow,
      cursor: (record) => record.id,
    }),
  ],
  [
    "refunds.csv",
    exportOf<RefundRecord>({
      columns: REFUND_COLUMNS,
      page: (ctx, request, query, after) => callService(ctx, request, listMerchantRefundsOp, { ...amountsOf(query), ...pageOf(after) }),
      row: recordRow(REFUND_COLUMNS),
      cursor: (record) => record.id,
    }),
  ],
]);

/**
 * Streams one export as the reply: the first page is fetched before the reply starts (a bad
 * filter is still a 4xx with the error body), then each page after the last row of the one
 * before, so memory holds one page whatever the export's length. Answers the reply itself:
 * fastify then waits for the stream instead of answering an empty body.
 */
export async function sendCsvExport(ctx: WebContext, request: FastifyRequest, reply: FastifyReply, name: string, query: BalanceTransactionExportQuery): Promise<FastifyReply> {
  const source = CSV_EXPORTS.get(name);
  if (!source) throw new Error(`no export ${name}`);
  const first = await source.page(ctx, request, query, undefined);
  const body = csvStream(
    source.columns,
    first,
    (p) => p.data.map((record) => source.row(record)),
    async (p) => (p.has_more && p.data.length > 0 ? source.page(ctx, request, query, source.cursor(p.data[p.data.length - 1]!)) : null),
  );
  return reply.type("text/csv; charset=utf-8").header("content-disposition", `attachment; filename="${name}"`).send(body);
}
