import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

describe("the WEBHOOK_* settings", () => {
  it("default to the documented schedule, a 10 s timeout and 3 days before disabling", () => {
    const config = loadConfig({});
    expect(config.WEBHOOK_RETRY_SCHEDULE).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(config.WEBHOOK_TIMEOUT).toBe(10_000);
    expect(config.WEBHOOK_DISABLE_AFTER).toBe(3 * 24 * 3_600_000);
  });

  it("take durations in ms, s, m, h, d or bare milliseconds", () => {
    const config = loadConfig({ WEBHOOK_RETRY_SCHEDULE: "250ms, 2s,1m,1h,1d,40", WEBHOOK_TIMEOUT: "2s", WEBHOOK_DISABLE_AFTER: "90m" });
    expect(config.WEBHOOK_RETRY_SCHEDULE).toEqual([250, 2_000, 60_000, 3_600_000, 86_400_000, 40]);
    expect(config.WEBHOOK_TIMEOUT).toBe(2_000);
    expect(config.WEBHOOK_DISABLE_AFTER).toBe(5_400_000);
  });

  it("refuse what is not a duration, naming the variable", () => {
    expect(() => loadConfig({ WEBHOOK_TIMEOUT: "soon" })).toThrow(/WEBHOOK_TIMEOUT: "soon" is not a duration/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: "5s,,5m" })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  it("list webhooks among the services SERVICES=all starts", () => {
    expect(loadConfig({}).SERVICES).toContain("webhooks");
    expect(loadConfig({ SERVICES: "gateway,webhooks" }).SERVICES).toEqual(["gateway", "webhooks"]);
  });
});
