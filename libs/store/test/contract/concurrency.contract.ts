import { describe, expect, it } from "vitest";
import { DuplicateKeyError, SequenceBlocks } from "../../src/index.ts";
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

    it("reserves blocks of a sequence that never overlap each other or single values", async () => {
      const name = ctx.uniqueName("seq");
      const store = ctx.store();
      const lasts = await Promise.all([store.reserveSequence(name, 10), store.nextSequence(name), store.reserveSequence(name, 5), store.nextSequence(name)]);
      const [block10, one, block5, two] = lasts as [number, number, number, number];
      const taken = [...range(block10 - 9, block10), one, ...range(block5 - 4, block5), two].sort((a, b) => a - b);
      expect(taken).toEqual(range(1, 17));
      expect(await store.nextSequence(name)).toBe(18);
      await expect(store.reserveSequence(name, 0)).rejects.toThrow(/cannot reserve 0/);
    });

    it("hands 250 concurrent SequenceBlocks takes, from two instances, distinct values with one write per block", async () => {
      const name = ctx.uniqueName("seq");
      let writes = 0;
      const counting = { reserveSequence: (n: string, count: number) => (writes++, ctx.store().reserveSequence(n, count)) };
      const [a, b] = [new SequenceBlocks(counting, name, 100), new SequenceBlocks(counting, name, 100)];
      const values = await Promise.all(Array.from({ length: 250 }, (_, i) => (i % 2 ? a : b).take()));
      expect(new Set(values).size).toBe(250);
      // 125 takes each: two blocks per instance, the second of each shared by its waiters.
      expect(writes).toBe(4);
      // A restarted instance starts above every block reserved before it.
      const restarted = new SequenceBlocks(counting, name, 100);
      expect(await restarted.take()).toBe(401);
      expect(await restarted.take()).toBe(402);
    });

    it("reserves, with blocks of one, as many values as callers wait: a burst costs a write a round trip, with no gaps", async () => {
      const name = ctx.uniqueName("seq");
      const sizes: number[] = [];
      const counting = { reserveSequence: (n: string, count: number) => (sizes.push(count), ctx.store().reserveSequence(n, count)) };
      const blocks = new SequenceBlocks(counting, name, 1);
      // The first take reserves for itself alone; the 49 that arrive while it is on its way share the next.
      const values = await Promise.all(Array.from({ length: 50 }, () => blocks.take()));
      expect(sizes).toEqual([1, 49]);
      expect([...values].sort((a, b) => a - b)).toEqual(range(1, 50));
      // Within the process the values rise in the order the callers came.
      expect(values).toEqual(range(1, 50));
      // One caller alone reserves one value: none is held back for later (a restart would skip it).
      expect(await blocks.take()).toBe(51);
      expect(sizes).toEqual([1, 49, 1]);
      expect(await ctx.store().nextSequence(name)).toBe(52);
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

    it("keeps every write of a burst but the ones that fail on a unique key, which change nothing", async () => {
      type Person = { _id: string; email: string; n?: number; tags?: number[] };
      const col = ctx.fresh<Person>();
      await col.createIndex({ keys: { email: 1 }, unique: true, name: "email_unique" });
      await col.insertOne({ _id: "a", email: "x" });
      await col.insertOne({ _id: "b", email: "y" });
      // Issued together, so the embedded store commits them as one batch.
      const results = await Promise.allSettled([
        col.insertOne({ _id: "c", email: "x" }),
        col.insertOne({ _id: "d", email: "z", tags: [1] }),
        col.findOneAndUpdate({ _id: "b" }, { $set: { email: "x", n: 1 } }),
        col.findOneAndUpdate({ _id: "a" }, { $set: { n: 2 } }),
        col.findOneAndUpdate({ _id: "e" }, { $set: { email: "y", tags: [2] } }, { upsert: true }),
        col.deleteOne({ _id: "missing" }),
        col.insertOne({ _id: "f", email: "w" }),
      ]);
      expect(results.map((r) => r.status)).toEqual(["rejected", "fulfilled", "rejected", "fulfilled", "rejected", "fulfilled", "fulfilled"]);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(DuplicateKeyError);
      expect(await col.find({}, { sort: { _id: 1 } })).toEqual([
        { _id: "a", email: "x", n: 2 },
        { _id: "b", email: "y" },
        { _id: "d", email: "z", tags: [1] },
        { _id: "f", email: "w" },
      ]);
    });
  });
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
