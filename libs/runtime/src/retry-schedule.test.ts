import { describe, expect, it } from "vitest";
import { nextRetryDelayMs } from "./retry-schedule.ts";

const SCHEDULE = [5_000, 300_000, 1_800_000];

describe("nextRetryDelayMs", () => {
  it("follows the schedule, one wait per failed attempt, then gives up", () => {
    expect(nextRetryDelayMs(SCHEDULE, 1, () => 0.5)).toBe(5_000);
    expect(nextRetryDelayMs(SCHEDULE, 2, () => 0.5)).toBe(300_000);
    expect(nextRetryDelayMs(SCHEDULE, 3, () => 0.5)).toBe(1_800_000);
    expect(nextRetryDelayMs(SCHEDULE, 4, () => 0.5)).toBeNull();
  });

  it("spreads each wait by at most 20 % either way", () => {
    expect(nextRetryDelayMs(SCHEDULE, 1, () => 0)).toBe(4_000);
    expect(nextRetryDelayMs(SCHEDULE, 1, () => 0.999_999)).toBe(6_000);
  });
});
