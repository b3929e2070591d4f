import { describe, expect, it } from "vitest";
import { afterFailure } from "./renewal-policy.ts";

const policy = { retryDays: [1, 3, 7], finalStatus: "cancelled" as const };
const due = "2026-03-31T10:00:00.000Z";

describe("afterFailure", () => {
  it("retries an R01 three times over seven days after the period's due date, then ends", () => {
    expect([0, 1, 2, 3].map((t) => afterFailure(policy, "R01", due, t))).toEqual([
      { kind: "retry", tryNumber: 1, at: "2026-04-01T10:00:00.000Z" },
      { kind: "retry", tryNumber: 2, at: "2026-04-03T10:00:00.000Z" },
      { kind: "retry", tryNumber: 3, at: "2026-04-07T10:00:00.000Z" },
      { kind: "end", status: "cancelled" },
    ]);
  });

  it("never retries a return that cannot succeed (R02 account closed, R16 frozen, R29 not authorised)", () => {
    for (const code of ["R02", "R03", "R04", "R05", "R07", "R08", "R10", "R16", "R20", "R29"]) {
      expect(afterFailure({ ...policy, finalStatus: "unpaid" }, code, due, 0)).toEqual({ kind: "end", status: "unpaid" });
    }
  });

  it("retries a failure without a code, and ends at once with no retries configured", () => {
    expect(afterFailure(policy, null, due, 0).kind).toBe("retry");
    expect(afterFailure({ retryDays: [], finalStatus: "unpaid" }, "R01", due, 0)).toEqual({ kind: "end", status: "unpaid" });
  });
});
