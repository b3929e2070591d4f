import type { DayTotalsPort } from "./ports/day-totals.port.ts";
import type { TransactionDoc } from "../transactions/transaction.entity.ts";

/**
 * Adds a final debit to its merchant's day totals: `completed` counts, `returned` takes back.
 * Idempotent, so it runs on every pass over a final record (a replayed notice, the reconciler,
 * the backfill): one that stopped after the record's write and before this one is counted then.
 */
export async function countDayTotal(deps: { dayTotals: DayTotalsPort }, t: TransactionDoc): Promise<void> {
  if (t.transaction_status !== "completed" && t.transaction_status !== "returned") return;
  await deps.dayTotals.record({
    transactionUuid: t._id,
    merchantId: t.merchantId,
    createdAt: t.created_at,
    amountCents: t.amountCents,
    outcome: t.transaction_status === "completed" ? "settled" : "returned",
  });
}
