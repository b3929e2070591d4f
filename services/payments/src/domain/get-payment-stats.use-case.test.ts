import { describe, expect, it } from "vitest";
import { getPaymentStats, VOLUME_CAP } from "./get-payment-stats.use-case.ts";

const NOW = Date.parse("2026-11-26T12:00:00.000Z");
const daysAgo = (d: number) => new Date(NOW - d * 86_400_000).toISOString();

/** A port over an in-memory list of settled debits (newest first), and a debit count per window. */
function port(settled: { created_at: string; amountCents: number }[], debits: (since: string) => number) {
  return {
    now: () => new Date(NOW),
    transactions: {
      countDebits: async (_m: string, since: string) => debits(since),
      countSettled: async (_m: string, since: string) => settled.filter((t) => t.created_at >= since).length,
      settledSince: async (_m: string, since: string, limit: number) => settled.filter((t) => t.created_at >= since).slice(0, limit),
    },
  };
}

describe("payment stats over 7 and 30 days", () => {
  it("adds up the settled cents of each window and counts its debits", async () => {
    const stats = await getPaymentStats(port([{ created_at: daysAgo(1), amountCents: 10_750 }, { created_at: daysAgo(10), amountCents: 5_005 }], (since) => (since > daysAgo(8) ? 3 : 5)), "mer_x");
    expect(stats.windows).toEqual([
      { days: 7, debits: 3, settled: 1, settled_volume: "107.50", volume_complete: true },
      { days: 30, debits: 5, settled: 2, settled_volume: "157.55", volume_complete: true },
    ]);
  });

  it("says the volume is partial when the window holds more settled debits than it reads", async () => {
    const many = Array.from({ length: VOLUME_CAP + 5 }, () => ({ created_at: daysAgo(20), amountCents: 100 }));
    const stats = await getPaymentStats(port(many, () => VOLUME_CAP + 5), "mer_x");
    expect(stats.windows[1]).toEqual({ days: 30, debits: VOLUME_CAP + 5, settled: VOLUME_CAP + 5, settled_volume: `${VOLUME_CAP}.00`, volume_complete: false });
    expect(stats.windows[0]).toMatchObject({ settled: 0, volume_complete: true });
  });
});
