import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { centsToDecimal, toCents } from "./money.schema.ts";

describe("toCents", () => {
  it("reads numbers and numeric strings exactly", () => {
    expect(toCents(0.29)).toBe(29);
    expect(toCents(1.005)).toBeNull();
    expect(toCents("1.10")).toBe(110);
    expect(toCents(107.5)).toBe(10750);
    expect(toCents("99999999.99")).toBe(9_999_999_999);
    expect(toCents(0)).toBe(0);
  });

  it("refuses what is not a non-negative decimal of at most 2 fraction digits", () => {
    for (const v of [-1, "-1", "1e3", 1e21, 1e-7, "1.", ".5", "", " ", "abc", null, undefined, {}, [], NaN, Infinity, "100000000", "0x10"]) {
      expect(toCents(v), String(v)).toBeNull();
    }
  });

  it("round-trips every cent amount through its decimal text", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), (cents) => {
        expect(toCents(centsToDecimal(cents))).toBe(cents);
        expect(toCents(Number(centsToDecimal(cents)))).toBe(cents);
      }),
    );
  });
});
