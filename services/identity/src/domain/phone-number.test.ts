import { describe, expect, it } from "vitest";
import { normalisePhone } from "./phone-number.ts";

describe("normalisePhone", () => {
  it("returns E.164 for international numbers however they are written", () => {
    expect(normalisePhone("+15551234567")).toBe("+15551234567"); // API.md's example (fictional 555 range)
    expect(normalisePhone(" +1 (415) 555-2671 ")).toBe("+14155552671");
    expect(normalisePhone("+44 20 7183 8750")).toBe("+442071838750");
    expect(normalisePhone("+49 151 2345 6789")).toBe("+4915123456789");
  });

  it("refuses national numbers, impossible lengths, unknown countries, extensions and text", () => {
    for (const raw of ["4155552671", "0044 20 7183 8750", "+1555", "+1415555267100", "+999123456789", "+14155552671 ext 12", "call +14155552671", "", "+"]) {
      expect(() => normalisePhone(raw), raw).toThrow(expect.objectContaining({ code: "invalid_phone_number", param: "phone" }));
    }
  });

  it("names the field it was given", () => {
    expect(() => normalisePhone("x", "phone_number")).toThrow(expect.objectContaining({ param: "phone_number" }));
  });
});
