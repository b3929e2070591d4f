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
      { day: "2026-10-27", settled: 50, settledCents: 999_999, returned: 0, returnedCents: 0 }, // 31 days ago: in neither window
      { day: "2026-10-28", settled: 1, settledCents: 5_005, returned: 0, returnedCents: 0 },
      { day: "2026-11-19", settled: 2, settledCents: 1_000, returned: 0, returnedCents: 0 },
      { day: "2026-11-20", settled: 1, settledCents: 10_750, returned: 0, returnedCents: 0 },
      { day: "2026-11-26", settled: 3_000_000, settledCents: 300_000_000_00, returned: 0, returnedCents: 0 },
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
    expect(stats.days.every((d) => d.settled === 0 && d.returned === 0 && d.returned_volume === "0.00")).toBe(true);
  });

  it("lists each of the 30 days oldest first, with its settled and returned debits, and zeros for a day without any", async () => {
    const { deps } = port([
      { day: "2026-10-28", settled: 1, settledCents: 5_005, returned: 0, returnedCents: 0 },
      { day: "2026-11-24", settled: 2, settledCents: 3_000, returned: 1, returnedCents: 1_250 },
    ]);
    const { days } = await getPaymentStats(deps, "mer_x");
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ day: "2026-10-28", settled: 1, settled_volume: "50.05", returned: 0, returned_volume: "0.00" });
    expect(days.find((d) => d.day === "2026-11-24")).toEqual({ day: "2026-11-24", settled: 2, settled_volume: "30.00", returned: 1, returned_volume: "12.50" });
    expect(days.find((d) => d.day === "2026-11-25")).toEqual({ day: "2026-11-25", settled: 0, settled_volume: "0.00", returned: 0, returned_volume: "0.00" });
    expect(days.at(-1)?.day).toBe("2026-11-26");
  });
});
