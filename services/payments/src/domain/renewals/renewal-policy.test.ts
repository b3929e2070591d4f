import { describe, expect, it } from "vitest";
import { afterFailure } from "./renewal-policy.ts";

const policy = { retryDays: [3, 5], finalStatus: "cancelled" as const };
const first = "2026-03-31T10:00:00.000Z";

describe("afterFailure (NACHA's re-presentment rules)", () => {
  it("retries an R01 at most twice, each dated from when its failure was learnt, then ends", () => {
    const learnt = ["2026-04-03T09:00:00.000Z", "2026-04-08T12:00:00.000Z", "2026-04-15T08:00:00.000Z"];
    expect([0, 1, 2].map((t) => afterFailure(policy, "R01", learnt[t]!, t, first))).toEqual([
      { kind: "retry", tryNumber: 1, at: "2026-04-06T09:00:00.000Z" },
      { kind: "retry", tryNumber: 2, at: "2026-04-13T12:00:00.000Z" },
      { kind: "end", status: "cancelled" },
    ]);
  });

  it("retries R09 like R01, and never any other code, nor a failure without one", () => {
    expect(afterFailure(policy, "R09", first, 0, first).kind).toBe("retry");
    for (const code of ["R02", "R03", "R04", "R05", "R06", "R07", "R08", "R10", "R11", "R16", "R20", "R29", "cancelled", null]) {
      expect(afterFailure({ ...policy, finalStatus: "unpaid" }, code, first, 0, first)).toEqual({ kind: "end", status: "unpaid" });
    }
  });

  it("never retries past 180 days of the first presentment, nor more than twice whatever is configured", () => {
    expect(afterFailure(policy, "R01", "2026-09-25T10:00:00.000Z", 0, first)).toEqual({ kind: "end", status: "cancelled" });
    expect(afterFailure({ retryDays: [1, 2, 3], finalStatus: "unpaid" }, "R01", first, 2, first)).toEqual({ kind: "end", status: "unpaid" });
    expect(afterFailure({ retryDays: [], finalStatus: "unpaid" }, "R01", first, 0, first)).toEqual({ kind: "end", status: "unpaid" });
  });
});
