import { describe, expect, it } from "vitest";
import { addBankingDays } from "./banking-days.ts";

describe("addBankingDays", () => {
  it("skips weekends", () => {
    // 2026-11-27 is a Friday.
    expect(addBankingDays(new Date("2026-11-27T15:00:00.000Z"), 2).toISOString()).toBe("2026-12-01T15:00:00.000Z");
    expect(addBankingDays(new Date("2026-11-24T15:00:00.000Z"), 2).toISOString()).toBe("2026-11-26T15:00:00.000Z");
    expect(addBankingDays(new Date("2026-11-28T15:00:00.000Z"), 1).toISOString()).toBe("2026-11-30T15:00:00.000Z");
  });
  it("is the same moment with no days", () => {
    expect(addBankingDays(new Date("2026-11-28T15:00:00.000Z"), 0).toISOString()).toBe("2026-11-28T15:00:00.000Z");
  });
});
