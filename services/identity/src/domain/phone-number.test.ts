import { describe, expect, it } from "vitest";
import { callingCodeOf, normalisePhone, phoneCountry } from "./phone-number.ts";

describe("normalisePhone", () => {
  it("returns E.164 for international numbers however they are written", () => {
    expect(normalisePhone("+15551234567")).toBe("+15551234567"); // the API notes' example (fictional 555 range)
    expect(normalisePhone(" +1 (415) 555-2671 ")).toBe("+14155552671");
    expect(normalisePhone("+44 20 7183 8750")).toBe("+442071838750");
    expect(normalisePhone("+49 151 2345 6789")).toBe("+4915123456789");
  });

  it("reads a number without its country code as one of the default country (US unless configured)", () => {
    for (const raw of ["(415) 555-2676", "4155552676", "415-555-2676", "415.555.2676", "1 415 555 2676"]) {
      expect(normalisePhone(raw), raw).toBe("+14155552676");
    }
    expect(normalisePhone("020 7183 8750", "GB")).toBe("+442071838750");
    expect(normalisePhone("+1 415 555 2676", "GB")).toBe("+14155552676");
  });

  it("refuses impossible lengths, unknown countries, extensions and text", () => {
    for (const raw of ["0044 20 7183 8750", "555-0100", "+1555", "+1415555267100", "+999123456789", "+14155552671 ext 12", "call +14155552671", "", "+"]) {
      expect(() => normalisePhone(raw), raw).toThrow(expect.objectContaining({ code: "invalid_phone_number", param: "phone" }));
    }
  });

  it("names the field it was given", () => {
    expect(() => normalisePhone("x", "US", "phone_number")).toThrow(expect.objectContaining({ param: "phone_number" }));
  });
});

describe("phoneCountry", () => {
  it("takes US by default and refuses a country without a numbering plan", () => {
    expect(phoneCountry(undefined)).toBe("US");
    expect(phoneCountry("gb")).toBe("GB");
    expect(() => phoneCountry("XX")).toThrow(/DEFAULT_PHONE_COUNTRY/);
  });
});

describe("callingCodeOf", () => {
  it("reads the country calling code of an E.164 number, one for all of +1", () => {
    expect(callingCodeOf("+14155552671")).toBe("1");
    expect(callingCodeOf("+18765550123")).toBe("1");
    expect(callingCodeOf("+442071838750")).toBe("44");
    expect(callingCodeOf("+4915123456789")).toBe("49");
  });
});
