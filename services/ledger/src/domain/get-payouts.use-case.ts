import { AppError, requireMerchant, type PayoutDetail, type PayoutListQuery, type PayoutListResponse, type Principal } from "@payrail/contracts";
import { toBalanceTransaction } from "./balance-transaction.entity.ts";
import type { PayoutDeps } from "./ledger.deps.ts";
import { toPayout, type PayoutDoc } from "./payout.entity.ts";

/** Balance transactions shown with a payout; more are paged through the balance transactions list. */
const REPORT_ROWS = 100;

/** The merchant's payouts, newest first; `starting_after` names the last of the previous page (one not the merchant's is 400). */
export async function listPayouts(deps: Pick<PayoutDeps, "payouts">, principal: Principal, query: PayoutListQuery): Promise<PayoutListResponse> {
  const { merchantId } = requireMerchant(principal);
  let after: PayoutDoc | undefined;
  if (query.starting_after !== undefined) {
    const found = await deps.payouts.find(query.starting_after);
    if (!found || found.merchantId !== merchantId) throw new AppError("parameter_invalid", "starting_after names no payout of this merchant", { param: "starting_after" });
    after = found;
  }
  const page = await deps.payouts.list(merchantId, query.limit + 1, after);
  return { data: page.slice(0, query.limit).map(toPayout), has_more: page.length > query.limit };
}

/** One payout with the balance transactions it contains: the reconciliation report. */
export async function getPayout(deps: Pick<PayoutDeps, "payouts" | "rows" | "now">, principal: Principal, id: string): Promise<PayoutDetail> {
  const { merchantId } = requireMerchant(principal);
  const payout = await deps.payouts.find(id);
  if (!payout || payout.merchantId !== merchantId || payout.stage === "open") throw new AppError("payout_not_found", `no payout ${id}`, { param: "id" });
  const rows = await deps.rows.list({ merchantId, payoutId: id }, REPORT_ROWS + 1);
  const now = deps.now().toISOString();
  return {
    ...toPayout(payout),
    balance_transactions: { data: rows.slice(0, REPORT_ROWS).map((r) => toBalanceTransaction(r, now)), has_more: rows.length > REPORT_ROWS },
  };
}
