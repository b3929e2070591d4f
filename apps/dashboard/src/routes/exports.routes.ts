import { AppError, BalanceTransactionType, PayoutId } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { CSV_EXPORTS, sendCsvExport, type WebContext } from "@payrail/web";
import { requireDashboardUser } from "../dashboard-session.ts";
import { amountFilters, SignedAmountRangeQuery } from "../amount-range.ts";
import { apiWindow, DateRangeQuery } from "../date-range.ts";
import { queryOf } from "../form.ts";
import { definedFilters } from "../paging.ts";

/** A list page's filters as its export button carries them: dates, amounts (the Balance page's type and payout too). */
const ExportFilters = DateRangeQuery.extend({
  // Signed here (Balance's); the checkouts' and refunds' lists refuse a `-` themselves, with the same 400.
  ...SignedAmountRangeQuery.shape,
  type: z.union([z.literal(""), BalanceTransactionType]).optional().transform((t) => t || undefined),
  payout_id: PayoutId.optional(),
});

/**
 * The list pages' CSV buttons: the API's exports (`/api/merchants/exports/…`) under the signed-in
 * user's merchant, every user's role alike (reading only). A bad filter is a 400 page before any
 * byte of CSV; the dates are the page's (`to` included), sent as the API's window.
 */
export async function exportsRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  app.get<{ Params: { name: string } }>("/dashboard/exports/:name", async (request, reply) => {
    requireDashboardUser(request);
    const name = request.params.name;
    if (!CSV_EXPORTS.has(name)) throw new AppError("route_not_found", `no export ${name}`);
    const query = queryOf(request, ExportFilters);
    // Only the balance transactions' list takes a type or a payout; transactions.csv its window alone.
    const filters = name === "balance_transactions.csv" ? definedFilters({ type: query.type, payout_id: query.payout_id }) : {};
    const amounts = name === "transactions.csv" ? {} : amountFilters(query);
    return sendCsvExport(ctx, request, reply, name, { ...filters, ...apiWindow(query), ...amounts });
  });
}
