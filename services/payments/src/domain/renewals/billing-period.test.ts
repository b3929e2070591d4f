import { describe, expect, it } from "vitest";
import { daysAfter, firstPeriodFrom, periodStart } from "./billing-period.ts";

describe("periodStart", () => {
  it("clamps month ends from a Jan 31 anchor without drifting: Feb 28, Mar 31, Apr 30", () => {
    const anchor = "2026-01-31T10:00:00.000Z";
    expect([1, 2, 3, 12].map((n) => periodStart(anchor, "monthly", n))).toEqual([
      "2026-02-28T10:00:00.000Z",
      "2026-03-31T10:00:00.000Z",
      "2026-04-30T10:00:00.000Z",
      "2027-01-31T10:00:00.000Z",
    ]);
  });

  it("gives Feb 29 in a leap year and Feb 28 the year after for a yearly Feb 29 anchor", () => {
    expect(periodStart("2028-01-31T00:00:00.000Z", "monthly", 1)).toBe("2028-02-29T00:00:00.000Z");
    expect(periodStart("2028-02-29T00:00:00.000Z", "yearly", 1)).toBe("2029-02-28T00:00:00.000Z");
    expect(periodStart("2028-02-29T00:00:00.000Z", "yearly", 4)).toBe("2032-02-29T00:00:00.000Z");
  });

  it("steps quarters by three months and days and weeks by whole days", () => {
    expect(periodStart("2026-11-30T00:00:00.000Z", "quarterly", 1)).toBe("2027-02-28T00:00:00.000Z");
    expect(periodStart("2026-12-31T23:00:00.000Z", "daily", 1)).toBe("2027-01-01T23:00:00.000Z");
    expect(periodStart("2026-12-31T23:00:00.000Z", "weekly", 2)).toBe("2027-01-14T23:00:00.000Z");
    expect(periodStart("2026-12-31T23:00:00.000Z", "monthly", 0)).toBe("2026-12-31T23:00:00.000Z");
  });

  it("adds whole days for retries", () => {
    expect(daysAfter("2026-02-28T10:00:00.000Z", 7)).toBe("2026-03-07T10:00:00.000Z");
  });
});

describe("firstPeriodFrom", () => {
  const anchor = "2027-01-31T10:00:00.000Z";
  it("skips every period that started by `at`, the one at `at` included", () => {
    expect(firstPeriodFrom(anchor, "monthly", 1, "2027-02-28T10:00:00.000Z")).toBe(2);
    expect(firstPeriodFrom(anchor, "monthly", 1, "2027-05-01T00:00:00.000Z")).toBe(4);
  });
  it("keeps a period that starts later, and never goes back before `from`", () => {
    expect(firstPeriodFrom(anchor, "monthly", 3, "2027-02-01T00:00:00.000Z")).toBe(3);
    expect(firstPeriodFrom(anchor, "weekly", 0, "2027-01-31T09:00:00.000Z")).toBe(1);
  });
});
