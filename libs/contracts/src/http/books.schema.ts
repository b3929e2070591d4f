import { z } from "zod";
import { AmountFilters, SignedAmountFilters } from "./amount-filters.schema.ts";

/**
 * The merchant's books (docs/decisions/0042-merchant-books.md): every money movement as a
 * balance transaction, and the balance they add up to. Integer cents inside, signed decimal
 * strings here.
 */
export const BalanceTransactionType = z.enum(["debit", "return", "refund", "payout"]);
export type BalanceTransactionType = z.infer<typeof BalanceTransactionType>;
export const BalanceTransactionStatus = z.enum(["pending", "available"]);
export type BalanceTransactionStatus = z.infer<typeof BalanceTransactionStatus>;

/** `btx_` + 32 lowercase hex. */
export const BalanceTransactionId = z.string().regex(/^btx_[0-9a-f]{32}$/, "must be btx_ and 32 lowercase hex");

/** A signed amount: `-` for money leaving the balance, then the decimal with two fraction digits. */
export const SignedDecimal = z.string().regex(/^-?(0|[1-9]\d*)\.\d{2}$/);

export const BalanceTransaction = z.object({
  id: BalanceTransactionId.describe("The balance transaction (`btx_…`), one per money movement"),
  type: BalanceTransactionType.describe("`debit` (a settled debit), `return` (a settled debit came back), `refund` (a refund paid out) or `payout`"),
  amount: SignedDecimal.describe("Signed decimal: positive adds to the balance, negative takes from it"),
  currency: z.string().describe("Three-letter ISO currency code, lower case (`usd`)"),
  status: BalanceTransactionStatus.describe("`pending` until `available_at`, then `available`"),
  source: z.string().describe("What moved the money: the transaction record (`sc-…`) or the refund (`rfd_…`)"),
  created_at: z.string().describe("When the money moved (ISO 8601 UTC)"),
  available_at: z.string().describe("When it counts in the available balance (ISO 8601 UTC)"),
  payout_id: z.string().nullable().describe("The payout that took it to the merchant's bank, or null"),
});
export type BalanceTransaction = z.infer<typeof BalanceTransaction>;

export const BalanceResponse = z.object({
  available: SignedDecimal.describe("What may be paid out now (signed: a return after a payout can make it negative)"),
  pending: SignedDecimal.describe("Settled debits not yet available"),
  currency: z.string().describe("Three-letter ISO currency code, lower case (`usd`)"),
});
export type BalanceResponse = z.infer<typeof BalanceResponse>;

const DATE_OR_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** A date (`2026-11-01`, midnight UTC) or an ISO 8601 time with its offset; anything else is 400 naming the field. */
export const DateBound = z
  .string()
  .regex(DATE_OR_TIME, "must be a date (YYYY-MM-DD) or an ISO 8601 time with offset")
  .refine((v) => !Number.isNaN(Date.parse(v)), "must be a real date");

/** A bound in the one form the store compares: ISO 8601 UTC with milliseconds. */
export function normalizedBound(value: string): string {
  return new Date(value).toISOString();
}

/** A list's `from`/`to` query as the store compares them (each normalised, absent when not given). */
export function normalizedWindow(query: { from?: string | undefined; to?: string | undefined }): { from: string | undefined; to: string | undefined } {
  return { from: query.from === undefined ? undefined : normalizedBound(query.from), to: query.to === undefined ? undefined : normalizedBound(query.to) };
}

/** The window of an export: `from` inclusive, `to` exclusive. */
export const ExportQuery = z.object({
  from: DateBound.optional().describe("Only what was created at or after this (a date or an ISO 8601 time)"),
  to: DateBound.optional().describe("Only what was created before this (a date or an ISO 8601 time)"),
});
export type ExportQuery = z.infer<typeof ExportQuery>;

/** The window and amount range of checkouts.csv and refunds.csv: the filters their lists share with them. */
export const AmountExportQuery = ExportQuery.extend(AmountFilters.shape);
export type AmountExportQuery = z.infer<typeof AmountExportQuery>;

/** The window and filters of balance_transactions.csv: the list's own, so the export holds what the list shows. */
export const BalanceTransactionExportQuery = ExportQuery.extend({
  ...SignedAmountFilters.shape,
  type: BalanceTransactionType.optional().describe("Only this type"),
  payout_id: z.string().min(1).max(64).optional().describe("Only the balance transactions of this payout (its reconciliation report)"),
});
export type BalanceTransactionExportQuery = z.infer<typeof BalanceTransactionExportQuery>;

export const BalanceTransactionListQuery = BalanceTransactionExportQuery.extend({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("At most this many (1–100, default 20)"),
  starting_after: BalanceTransactionId.optional().describe("The last balance transaction of the previous page: the page after it"),
});
export type BalanceTransactionListQuery = z.infer<typeof BalanceTransactionListQuery>;

export const BalanceTransactionListResponse = z.object({
  data: z.array(BalanceTransaction).describe("The balance transactions, newest first"),
  has_more: z.boolean().describe("Whether more follow (ask again with `starting_after`)"),
});
export type BalanceTransactionListResponse = z.infer<typeof BalanceTransactionListResponse>;

/** A page of the merchant's transaction records for transactions.csv, newest first. */
export const TransactionExportPageQuery = ExportQuery.extend({
  limit: z.coerce.number().int().min(1).max(100).default(100).describe("At most this many (1–100, default 100)"),
  starting_after: z.string().regex(/^sc-[0-9a-f]{32}$/, "must be sc- and 32 lowercase hex").optional().describe("The last record of the previous page"),
});
export type TransactionExportPageQuery = z.infer<typeof TransactionExportPageQuery>;

/** The merchant's balance has no input. */
export const BalanceQuery = z.object({});
