import { describe, expect, it } from "vitest";
import { DuplicateKeyError } from "../../src/index.ts";
import type { ContractContext } from "./contract-context.ts";

type Claim = { _id: string; status: string; winner?: number; n?: number };

export function concurrencyContract(ctx: ContractContext): void {
  describe("concurrent writers", () => {
    it("lets exactly one of 50 concurrent conditional updates win", async () => {
      const col = ctx.fresh<Claim>();
      await col.insertOne({ _id: "c1", status: "open" });
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => col.findOneAndUpdate({ status: "open" }, { $set: { status: "claimed", winner: i } })),
      );
      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      expect(await col.findOne({ _id: "c1" })).toEqual(winners[0]);
    });

    it("hands 100 concurrent nextSequence calls the values 1..100, each once", async () => {
      const name = ctx.uniqueName("seq");
      const values = await Promise.all(Array.from({ length: 100 }, () => ctx.store().nextSequence(name)));
      expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    });

    it("keeps separate sequences apart", async () => {
      const [a, b] = [ctx.uniqueName("seq"), ctx.uniqueName("seq")];
      expect(await ctx.store().nextSequence(a)).toBe(1);
      expect(await ctx.store().nextSequence(a)).toBe(2);
      expect(await ctx.store().nextSequence(b)).toBe(1);
    });

    it("accepts one of 20 concurrent inserts of the same _id and rejects the rest as duplicates", async () => {
      const col = ctx.fresh<Claim>();
      const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => col.insertOne({ _id: "same", status: `s${i}` })));
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(DuplicateKeyError);
    });

    it("creates one document from 20 concurrent upserts of a new key and counts all 20", async () => {
      const col = ctx.fresh<Claim>();
      await Promise.all(
        Array.from({ length: 20 }, () => col.findOneAndUpdate({ _id: "k" }, { $inc: { n: 1 }, $setOnInsert: { status: "new" } }, { upsert: true })),
      );
      expect(await col.find({})).toEqual([{ _id: "k", status: "new", n: 20 }]);
    });
  });
}
