import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

describe("hosted page configuration", () => {
  it("reads CORS_ORIGINS as a list of origins, none by default", () => {
    expect(loadConfig({}).CORS_ORIGINS).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: " https://shop.example, http://127.0.0.1:3000/ ," }).CORS_ORIGINS).toEqual([
      "https://shop.example",
      "http://127.0.0.1:3000",
    ]);
  });

  it("refuses a CORS origin that a browser would never send, naming it", () => {
    expect(() => loadConfig({ CORS_ORIGINS: "https://shop.example,shop.example" })).toThrow(/CORS_ORIGINS: "shop.example" is not an origin/);
    expect(() => loadConfig({ CORS_ORIGINS: "https://shop.example/checkout" })).toThrow(/CORS_ORIGINS/);
  });

  it("takes PUBLIC_URL only as a URL", () => {
    expect(loadConfig({}).PUBLIC_URL).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL: "https://pay.example" }).PUBLIC_URL).toBe("https://pay.example");
    expect(() => loadConfig({ PUBLIC_URL: "pay.example" })).toThrow(/PUBLIC_URL/);
  });

  it("reads phones without a country code as US numbers unless DEFAULT_PHONE_COUNTRY names another country", () => {
    expect(loadConfig({}).DEFAULT_PHONE_COUNTRY).toBe("US");
    expect(loadConfig({ DEFAULT_PHONE_COUNTRY: "gb" }).DEFAULT_PHONE_COUNTRY).toBe("GB");
    expect(() => loadConfig({ DEFAULT_PHONE_COUNTRY: "USA" })).toThrow(/DEFAULT_PHONE_COUNTRY: two letters/);
  });
});

describe("upcoming-charge notices", () => {
  it("go 3 days before a renewal by default, and NOTICE_DAYS_BEFORE takes 1 to 10 (a changed amount's 10 days is the law's)", () => {
    expect(loadConfig({}).NOTICE_DAYS_BEFORE).toBe(3);
    expect(loadConfig({ NOTICE_DAYS_BEFORE: "7" }).NOTICE_DAYS_BEFORE).toBe(7);
    for (const bad of ["0", "11", "2.5", "soon"]) expect(() => loadConfig({ NOTICE_DAYS_BEFORE: bad }), bad).toThrow(/NOTICE_DAYS_BEFORE/);
  });
});

describe("renewal retries within NACHA's bounds", () => {
  it("retries 3 then 5 days after each failure by default", () => {
    expect(loadConfig({}).RENEWAL_RETRY_DAYS).toEqual([3, 5]);
    expect(loadConfig({ RENEWAL_RETRY_DAYS: "2" }).RENEWAL_RETRY_DAYS).toEqual([2]);
  });

  it("stops the start on more than 2 retries, a zero day, or retries beyond 180 days, naming the setting", () => {
    expect(() => loadConfig({ RENEWAL_RETRY_DAYS: "1,3,7" })).toThrow(/RENEWAL_RETRY_DAYS: NACHA allows at most 2 retries/);
    expect(() => loadConfig({ RENEWAL_RETRY_DAYS: "0,3" })).toThrow(/RENEWAL_RETRY_DAYS/);
    expect(() => loadConfig({ RENEWAL_RETRY_DAYS: "90,90" })).toThrow(/RENEWAL_RETRY_DAYS: retries must fit within NACHA's 180 days/);
  });
});

describe("event retry configuration", () => {
  it("retries failing events for 24 hours by default; EVENT_RETRY_HOURS takes hours, fractions too", () => {
    expect(loadConfig({}).EVENT_RETRY_HOURS).toBe(24);
    expect(loadConfig({ EVENT_RETRY_HOURS: "72" }).EVENT_RETRY_HOURS).toBe(72);
    expect(loadConfig({ EVENT_RETRY_HOURS: "0.5" }).EVENT_RETRY_HOURS).toBe(0.5);
    expect(() => loadConfig({ EVENT_RETRY_HOURS: "0" })).toThrow(/EVENT_RETRY_HOURS/);
    expect(() => loadConfig({ EVENT_RETRY_HOURS: "a day" })).toThrow(/EVENT_RETRY_HOURS/);
  });
});
