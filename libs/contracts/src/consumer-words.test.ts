import { describe, expect, it } from "vitest";
import { amountInWords, dayInWords, decimalInWords, shortDayInWords } from "./consumer-words.ts";

describe("the consumer's words for amounts and days", () => {
  it("writes dollars with separators and two decimals, other currencies as decimals with their code", () => {
    expect(amountInWords(123_450, "USD")).toBe("$1,234.50");
    expect(amountInWords(5, "USD")).toBe("$0.05");
    expect(amountInWords(99_999, "USD")).toBe("$999.99");
    expect(amountInWords(123_456_789_00, "USD")).toBe("$123,456,789.00");
    expect(amountInWords(-123_450, "USD")).toBe("$-1,234.50");
    expect(amountInWords(1_250, "EUR")).toBe("12.50 EUR");
  });

  it("writes a day in UTC, whatever the time of day", () => {
    expect(dayInWords("2026-11-28T23:59:59.999Z")).toBe("November 28, 2026");
    expect(dayInWords(new Date("2026-01-01T00:00:00Z"))).toBe("January 1, 2026");
    expect(shortDayInWords("2026-09-05T00:00:00Z")).toBe("Sep 5, 2026");
    expect(() => dayInWords("not a date")).toThrow(RangeError);
  });

  // The words are written out (no ICU data in the server); they must read as Intl's en-US.
  it("reads as Intl's en-US forms for amounts and days across their ranges", () => {
    const dollars = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const longDay = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });
    const shortDay = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "short", day: "numeric" });
    let seed = 20261129;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let i = 0; i < 2_000; i++) {
      const cents = next() % 10 ** (1 + (i % 12));
      expect(amountInWords(cents, "USD")).toBe(`$${dollars.format(cents / 100)}`);
      if (cents > 0) expect(decimalInWords(-cents)).toBe(dollars.format(-cents / 100));
      const day = new Date(Date.UTC(1970, 0, 1) + (next() % 30_000) * 86_400_000 + (next() % 86_400_000));
      expect(dayInWords(day)).toBe(longDay.format(day));
      expect(dayInWords(day.toISOString())).toBe(longDay.format(day));
      expect(shortDayInWords(day.toISOString())).toBe(shortDay.format(day));
    }
  });
});
