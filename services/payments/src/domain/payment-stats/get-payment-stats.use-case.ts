import { centsToDecimal } from "@payrail/contracts";
import type { DayTotalsPort } from "./ports/day-totals.port.ts";
import type { TransactionsPort } from "../transactions/ports/transactions.port.ts";

const DAY_MS = 86_400_000;
const WINDOWS = [7, 30] as const;

/** The UTC date `days - 1` days before now's: the first day of a window of `days` days that ends today. */
const firstDay = (now: number, days: number) => new Date(now - (days - 1) * DAY_MS).toISOString().slice(0, 10);

/**
 * Debits over the last 7 and 30 UTC days (today included): the debit counts from an index, the
 * settled counts and volume from the merchant's day totals, exact at any volume (one read of at
 * most 30 documents serves both windows and the 30 days of the chart).
 */
export async function getPaymentStats(deps: { transactions: Pick<TransactionsPort, "countDebits">; dayTotals: Pick<DayTotalsPort, "since">; now(): Date }, merchantId: string) {
  const now = deps.now().getTime();
  const days = await deps.dayTotals.since(merchantId, firstDay(now, 30));
  const windows = await Promise.all(
    WINDOWS.map(async (n) => {
      const from = firstDay(now, n);
      const inWindow = days.filter((d) => d.day >= from);
      return {
        days: n,
        debits: await deps.transactions.countDebits(merchantId, `${from}T00:00:00.000Z`),
        settled: inWindow.reduce((sum, d) => sum + d.settled, 0),
        settled_volume: centsToDecimal(inWindow.reduce((sum, d) => sum + d.settledCents, 0)),
      };
    }),
  );
  const byDay = new Map(days.map((d) => [d.day, d]));
  const series = Array.from({ length: 30 }, (_, i) => firstDay(now, 30 - i)).map((day) => {
    const d = byDay.get(day);
    return {
      day,
      settled: d?.settled ?? 0,
      settled_volume: centsToDecimal(d?.settledCents ?? 0),
      returned: d?.returned ?? 0,
      returned_volume: centsToDecimal(d?.returnedCents ?? 0),
    };
  });
  return { windows, days: series, currency: "USD" };
}
