import { describe, expect, it } from "vitest";
import { checkRetryPolicy, jittered, RETRY_DEFAULTS, retrySteps, stepAfter } from "./retry-policy.ts";

describe("the event retry policy", () => {
  it("doubles from the first wait up to the cap, then stays there", () => {
    const policy = { firstDelayMs: 1_000, maxDelayMs: 10_000, retryForMs: 60_000 };
    expect(retrySteps(policy)).toEqual([1_000, 2_000, 4_000, 8_000, 10_000]);
    expect([1, 2, 3, 4, 5, 6, 50].map((failures) => stepAfter(policy, failures))).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
  });

  it("rides out a 10 s failover by default within four steps, and spends a day in a few hundred", () => {
    const steps = [1, 2, 3, 4].map((n) => stepAfter(RETRY_DEFAULTS, n));
    expect(steps.reduce((a, b) => a + b)).toBeGreaterThanOrEqual(10_000);
    let waited = 0;
    let attempts = 0;
    while (waited < RETRY_DEFAULTS.retryForMs) waited += stepAfter(RETRY_DEFAULTS, ++attempts);
    expect(attempts).toBeGreaterThan(250);
    expect(attempts).toBeLessThan(300);
  });

  it("jitters each wait down by at most a fifth, never past its step (a RabbitMQ tier's TTL)", () => {
    expect(jittered(1_000, () => 0)).toBe(800);
    expect(jittered(1_000, () => 0.999999)).toBe(1_000);
    for (let i = 0; i < 1_000; i++) {
      const wait = jittered(300_000);
      expect(wait).toBeGreaterThanOrEqual(240_000);
      expect(wait).toBeLessThanOrEqual(300_000);
    }
  });

  it("refuses policies that make no sense", () => {
    expect(() => checkRetryPolicy({ firstDelayMs: 0, maxDelayMs: 10, retryForMs: 1 })).toThrow(/firstDelayMs/);
    expect(() => checkRetryPolicy({ firstDelayMs: 100, maxDelayMs: 10, retryForMs: 1 })).toThrow(/maxDelayMs/);
    expect(() => checkRetryPolicy({ firstDelayMs: 100, maxDelayMs: 100, retryForMs: -1 })).toThrow(/retryForMs/);
    // A first wait of 1 ms up to an hour stops at 32 steps (32 queues), not one per doubling past it.
    expect(retrySteps({ firstDelayMs: 1, maxDelayMs: 2 ** 40, retryForMs: 1 })).toHaveLength(32);
  });
});
