import { describe, expect, it } from "vitest";
import { getPaymentStats } from "./get-payment-stats.use-case.ts";
import type { DayTotal } from "./ports/day-totals.port.ts";

const NOW = new Date("2026-11-26T12:00:00.000Z");

/** Day totals in memory, and the debit count's `since` asked for each window. */
function port(days: DayTotal[]) {
  const asked: string[] = [];
  return {
    asked,
    deps: {
      now: () => NOW,
      dayTotals: { since: async (_m: string, from: string) => days.filter((d) => d.day >= from) },
      transactions: {
        countDebits: async (_m: string, since: string) => {
          asked.push(since);
          return since >= "2026-11-20" ? 3 : 9;
        },
      },
    },
  };
}

describe("payment stats over 7 and 30 days", () => {
  it("adds up the day totals of each window (UTC days, today included) and counts its debits from the window's first day", async () => {
    const { deps, asked } = port([
      { day: "2026-10-27", settled: 50, settledCents: 999_999 }, // 31 days ago: in neither window
      { day: "2026-10-28", settled: 1, settledCents: 5_005 },
      { day: "2026-11-19", settled: 2, settledCents: 1_000 },
      { day: "2026-11-20", settled: 1, settledCents: 10_750 },
      { day: "2026-11-26", settled: 3_000_000, settledCents: 300_000_000_00 },
    ]);
    const stats = await getPaymentStats(deps, "mer_x");
    expect(stats.windows).toEqual([
      { days: 7, debits: 3, settled: 3_000_001, settled_volume: "300000107.50" },
      { days: 30, debits: 9, settled: 3_000_004, settled_volume: "300000167.55" },
    ]);
    expect(asked).toEqual(["2026-11-20T00:00:00.000Z", "2026-10-28T00:00:00.000Z"]);
  });

  it("answers zeros for a merchant without settled debits", async () => {
    const stats = await getPaymentStats(port([]).deps, "mer_x");
    expect(stats.windows.map((w) => [w.settled, w.settled_volume])).toEqual([
      [0, "0.00"],
      [0, "0.00"],
    ]);
  });
});
