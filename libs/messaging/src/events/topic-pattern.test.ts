import { describe, expect, it } from "vitest";
import { checkPatterns, matchesTopic } from "./topic-pattern.ts";

describe("topic patterns", () => {
  it.each([
    ["refund.approved", "refund.approved", true],
    ["refund.approved", "refund.rejected", false],
    ["refund.*", "refund.approved", true],
    ["refund.*", "refund", false],
    ["*.failed", "transaction.failed", true],
    ["#", "checkout.payment_method_saved", true],
    ["refund.#", "refund", true],
    ["#.failed", "refund.failed", true],
    ["#.failed", "refund.completed", false],
    ["*", "refund.failed", false],
  ])("%s against %s is %s, as on the broker", (pattern, key, expected) => {
    expect(matchesTopic(pattern, key)).toBe(expected);
  });

  it("refuses patterns that match no catalogued type, and an empty list", () => {
    expect(() => checkPatterns(["refund.*", "transaction.completed"])).not.toThrow();
    expect(() => checkPatterns(["refunds.*"])).toThrow(/matches no event type/);
    expect(() => checkPatterns(["Refund.approved"])).toThrow(/matches no event type/);
    expect(() => checkPatterns([])).toThrow(/at least one/);
  });
});
