import { beforeAll, describe, expect, it } from "vitest";
import type { Collection, Filter } from "../../src/index.ts";
import type { ContractContext } from "./contract-context.ts";

type Payment = {
  _id: string;
  status: string;
  amount: number;
  createdAt: string;
  merchant: { id: string };
  tags?: string[];
  note?: string | null;
  refundedAt?: string;
};

const PAYMENTS: Payment[] = [
  { _id: "a", status: "open", amount: 500, createdAt: "2024-01-01T00:00:00.000Z", merchant: { id: "m1" }, tags: ["x"] },
  { _id: "b", status: "paid", amount: 1500, createdAt: "2024-02-01T00:00:00.000Z", merchant: { id: "m2" }, note: null },
  { _id: "c", status: "open", amount: 2500, createdAt: "2024-03-01T00:00:00.000Z", merchant: { id: "m1" }, tags: ["x", "y"], refundedAt: "2024-03-05T00:00:00.000Z" },
  { _id: "d", status: "void", amount: 10, createdAt: "2024-04-01T00:00:00.000Z", merchant: { id: "m3" } },
];

const CASES: [string, Filter, string[]][] = [
  ["equality", { status: "open" }, ["a", "c"]],
  ["$eq", { status: { $eq: "paid" } }, ["b"]],
  ["$in", { status: { $in: ["open", "paid"] } }, ["a", "b", "c"]],
  ["an empty $in", { status: { $in: [] } }, []],
  ["$nin", { status: { $nin: ["open"] } }, ["b", "d"]],
  ["$ne", { status: { $ne: "open" } }, ["b", "d"]],
  ["$gt/$lt on ISO date strings", { createdAt: { $gt: "2024-01-15T00:00:00.000Z", $lt: "2024-03-15T00:00:00.000Z" } }, ["b", "c"]],
  ["$gte on numbers", { amount: { $gte: 1500 } }, ["b", "c"]],
  ["$lte on numbers", { amount: { $lte: 500 } }, ["a", "d"]],
  ["a range whose type differs from the field's (no match)", { amount: { $gt: "1" } }, []],
  ["$exists: true", { refundedAt: { $exists: true } }, ["c"]],
  ["$exists: false", { refundedAt: { $exists: false } }, ["a", "b", "d"]],
  ["a dotted path", { "merchant.id": "m1" }, ["a", "c"]],
  ["$or", { $or: [{ status: "void" }, { amount: { $gt: 2000 } }] }, ["c", "d"]],
  ["null (matches null and missing)", { note: null }, ["a", "b", "c", "d"]],
  ["$ne: null (present and not null)", { status: { $ne: null } }, ["a", "b", "c", "d"]],
  ["$ne: null on a field that is null or missing", { note: { $ne: null } }, []],
  ["an array field holding the value", { tags: "y" }, ["c"]],
  ["$ne on an array field (no element equal)", { tags: { $ne: "y" } }, ["a", "b", "d"]],
  ["several conditions at once", { status: "open", "merchant.id": "m1", amount: { $gt: 1000 } }, ["c"]],
  ["_id and a condition that holds", { _id: "c", "merchant.id": "m1" }, ["c"]],
  ["_id and a condition that fails (another tenant's document)", { _id: "c", "merchant.id": "m2" }, []],
  ["_id and an operator", { _id: "a", tags: { $ne: "y" } }, ["a"]],
  ["_id and null (matches missing)", { _id: "d", note: null }, ["d"]],
  ["an _id nobody has", { _id: "zz" }, []],
];

export function findContract(ctx: ContractContext): void {
  describe("find, findOne, countDocuments, deleteOne, deleteOldest", () => {
    let col: Collection<Payment>;
    beforeAll(async () => {
      col = ctx.fresh<Payment>("payments");
      for (const p of PAYMENTS) await col.insertOne(p);
    });

    it.each(CASES)("filters by %s", async (_label, filter, ids) => {
      const found = await col.find(filter, { sort: { _id: 1 } });
      expect(found.map((p) => p._id)).toEqual(ids);
      expect(await col.countDocuments(filter)).toBe(ids.length);
    });

    it("sorts on one or several fields, then skips and limits", async () => {
      const ids = async (options: Parameters<typeof col.find>[1]) => (await col.find({}, options)).map((p) => p._id);
      expect(await ids({ sort: { amount: -1 } })).toEqual(["c", "b", "a", "d"]);
      expect(await ids({ sort: { amount: -1 }, skip: 1, limit: 2 })).toEqual(["b", "a"]);
      expect(await ids({ sort: { status: 1, amount: -1 } })).toEqual(["c", "a", "b", "d"]);
      expect(await ids({ sort: { "merchant.id": 1, createdAt: -1 } })).toEqual(["c", "a", "b", "d"]);
    });

    it("returns the first document in sort order from findOne, or null", async () => {
      expect(await col.findOne({ status: "open" }, { sort: { amount: -1 } })).toEqual(PAYMENTS[2]);
      expect(await col.findOne({ status: "refunded" })).toBeNull();
    });

    it("returns documents the caller may change without changing the store", async () => {
      const [first] = await col.find({ _id: "a" });
      first!.tags!.push("mutated");
      expect((await col.findOne({ _id: "a" }))?.tags).toEqual(["x"]);
    });

    it("refuses a filter holding undefined instead of matching everything", async () => {
      await expect(col.find({ "merchant.id": undefined })).rejects.toThrow(/undefined/);
      await expect(col.findOneAndUpdate({ status: { $ne: undefined } }, { $set: { x: 1 } })).rejects.toThrow(/undefined/);
    });

    it("deletes at most one matching document and says whether it did", async () => {
      const scratch = ctx.fresh<{ _id: string; kind: string }>();
      for (const id of ["1", "2", "3"]) await scratch.insertOne({ _id: id, kind: id === "3" ? "other" : "same" });
      expect(await scratch.deleteOne({ kind: "same" })).toBe(true);
      expect(await scratch.countDocuments({ kind: "same" })).toBe(1);
      expect(await scratch.deleteOne({ kind: "missing" })).toBe(false);
      expect(await scratch.deleteOne({ _id: "3" })).toBe(true);
      expect(await scratch.deleteOne({ _id: "3" })).toBe(false);
      expect(await scratch.countDocuments({})).toBe(1);
    });

    it("deletes the oldest documents below a bound, a batch per deleteOldest call, and says how many", async () => {
      const scratch = ctx.fresh<{ _id: string; at: number }>();
      await scratch.createIndex({ keys: { at: 1 } });
      for (let i = 0; i < 25; i++) await scratch.insertOne({ _id: `d${(i * 7) % 25}`, at: (i * 7) % 25 });
      expect(await scratch.deleteOldest("at", 20, { limit: 8 })).toBe(8);
      expect((await scratch.find({ at: { $lt: 100 } }, { sort: { at: 1 }, limit: 1 }))[0]?.at).toBe(8);
      expect(await scratch.deleteOldest("at", 20, { limit: 8 })).toBe(8);
      expect(await scratch.deleteOldest("at", 20, { limit: 8 })).toBe(4);
      expect(await scratch.deleteOldest("at", 20, { limit: 8 })).toBe(0);
      expect((await scratch.find({ at: { $lt: 100 } }, { sort: { at: 1 } })).map((d) => d.at)).toEqual([20, 21, 22, 23, 24]);
    });
  });
}
