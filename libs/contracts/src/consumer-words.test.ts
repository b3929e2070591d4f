import { describe, expect, it } from "vitest";
import { amountInWords, dayInWords } from "./consumer-words.ts";

describe("the consumer's words for amounts and days", () => {
  it("writes dollars with separators and two decimals, other currencies as decimals with their code", () => {
    expect(amountInWords(123_450, "USD")).toBe("$1,234.50");
    expect(amountInWords(5, "USD")).toBe("$0.05");
    expect(amountInWords(1_250, "EUR")).toBe("12.50 EUR");
  });

  it("writes a day in UTC, whatever the time of day", () => {
    expect(dayInWords("2026-11-28T23:59:59.999Z")).toBe("November 28, 2026");
    expect(dayInWords(new Date("2026-01-01T00:00:00Z"))).toBe("January 1, 2026");
  });
});
