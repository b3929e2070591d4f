import { describe, expect, it } from "vitest";
import type { Filter, IndexSpec, SortSpec } from "../store.port.ts";
import { isServed } from "./index-coverage.rule.ts";

const INDEXES: IndexSpec[] = [{ keys: { merchantId: 1, number: -1 } }, { keys: { phone: 1 }, unique: true }];

const CASES: [string, Filter, SortSpec | undefined, number | undefined, boolean][] = [
  ["_id equality", { _id: "a" }, undefined, undefined, true],
  ["_id with other fields", { _id: "a", merchantId: "m", status: "open" }, undefined, undefined, true],
  ["_id $in", { _id: { $in: ["a", "b"] } }, undefined, undefined, true],
  ["the first key of a compound index", { merchantId: "m" }, { number: -1 }, 20, true],
  ["the first key with a range on the second", { merchantId: "m", number: { $lt: 10 } }, undefined, 20, true],
  ["a range on a first key", { phone: { $gt: "+1" } }, undefined, undefined, true],
  ["null equality on a first key", { phone: null }, undefined, undefined, true],
  ["only the second key of a compound index", { number: 5 }, undefined, undefined, false],
  ["a field with no index", { status: "open" }, undefined, undefined, false],
  ["$ne on an indexed field", { phone: { $ne: "x" } }, undefined, undefined, false],
  ["$exists on an indexed field", { phone: { $exists: true } }, undefined, undefined, false],
  ["an $or whose branches are all served", { $or: [{ _id: "a" }, { phone: "p" }] }, undefined, undefined, true],
  ["an $or with one unserved branch", { $or: [{ _id: "a" }, { status: "x" }] }, undefined, undefined, false],
  ["an empty filter", {}, undefined, undefined, false],
  ["an empty filter sorted on an index with a limit", {}, { merchantId: 1 }, 10, true],
  ["an empty filter sorted on an index without a limit", {}, { merchantId: 1 }, undefined, false],
  ["an empty filter sorted on an unindexed field", {}, { status: 1 }, 10, false],
];

describe("isServed", () => {
  it.each(CASES)("%s → %s", (_label, filter, sort, limit, expected) => {
    expect(isServed(filter, INDEXES, sort, limit)).toBe(expected);
  });
});
