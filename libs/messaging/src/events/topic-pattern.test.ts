import { describe, expect, it } from "vitest";
import { checkPatterns, MATCHER_MEMORY, matchesTopic, topicMatcher } from "./topic-pattern.ts";

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

  it("a matcher answers as matchesTopic over its patterns, asked once or again", () => {
    const patterns = ["refund.*", "#.failed"];
    const matches = topicMatcher(patterns);
    const keys = ["refund.approved", "refund", "transaction.failed", "checkout.created", "refund.approved", "transaction.failed"];
    for (const key of keys) expect(matches(key)).toBe(patterns.some((p) => matchesTopic(p, key)));
  });

  it("a matcher keeps its own copy of the patterns, and answers types past its memory too", () => {
    const patterns = new Set(["refund.*"]);
    const matches = topicMatcher(patterns);
    patterns.add("#");
    expect(matches("checkout.created")).toBe(false);
    // Types off the catalogue (a wire's garbage) past the memory are still answered, each matched anew.
    for (let i = 0; i < MATCHER_MEMORY + 50; i++) expect(matches(`refund.t${i}`)).toBe(true);
    for (let i = 0; i < MATCHER_MEMORY + 50; i++) expect(matches(`other.t${i}`)).toBe(false);
  });
});
