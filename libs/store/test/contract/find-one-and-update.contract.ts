import { describe, expect, it } from "vitest";
import { DuplicateKeyError } from "../../src/index.ts";
import type { ContractContext } from "./contract-context.ts";

type Transfer = {
  _id: string;
  status: string;
  attempts?: number;
  provider?: { id?: string; status?: string; fee?: number };
  events?: { at: string; status: string }[];
  createdAt?: string;
  merchantId?: string;
  secret?: string;
};

export function findOneAndUpdateContract(ctx: ContractContext): void {
  describe("findOneAndUpdate", () => {
    it("applies $set, $inc, $push and $unset, dotted paths included, and returns the document after", async () => {
      const col = ctx.fresh<Transfer>();
      await col.insertOne({ _id: "t1", status: "pending", attempts: 1, provider: { id: "p1", fee: 5 }, secret: "s" });
      const after = await col.findOneAndUpdate(
        { _id: "t1", status: "pending" },
        {
          $set: { status: "processed", "provider.status": "settled" },
          $inc: { attempts: 1, "provider.fee": 10 },
          $push: { events: { at: "2024-01-01T00:00:00.000Z", status: "processed" } },
          $unset: { secret: "", "provider.id": 1 },
        },
      );
      const expected = {
        _id: "t1",
        status: "processed",
        attempts: 2,
        provider: { fee: 15, status: "settled" },
        events: [{ at: "2024-01-01T00:00:00.000Z", status: "processed" }],
      };
      expect(after).toEqual(expected);
      expect(await col.findOne({ _id: "t1" })).toEqual(expected);
    });

    it("creates missing fields: $inc from zero, $push into a new array", async () => {
      const col = ctx.fresh<Transfer>();
      await col.insertOne({ _id: "t1", status: "pending" });
      const after = await col.findOneAndUpdate({ _id: "t1" }, { $inc: { attempts: 3 }, $push: { events: { at: "x", status: "y" } } });
      expect(after).toEqual({ _id: "t1", status: "pending", attempts: 3, events: [{ at: "x", status: "y" }] });
    });

    it("returns the document before the update when asked", async () => {
      const col = ctx.fresh<Transfer>();
      await col.insertOne({ _id: "t1", status: "pending" });
      const before = await col.findOneAndUpdate({ _id: "t1" }, { $set: { status: "failed" } }, { returnDocument: "before" });
      expect(before).toEqual({ _id: "t1", status: "pending" });
      expect(await col.findOne({ _id: "t1" })).toEqual({ _id: "t1", status: "failed" });
    });

    it("returns null and writes nothing when no document matches and upsert is off", async () => {
      const col = ctx.fresh<Transfer>();
      await col.insertOne({ _id: "t1", status: "processed" });
      expect(await col.findOneAndUpdate({ _id: "t1", status: "pending" }, { $set: { status: "failed" } })).toBeNull();
      expect(await col.findOneAndUpdate({ _id: "t2" }, { $set: { status: "failed" } })).toBeNull();
      expect(await col.find({})).toEqual([{ _id: "t1", status: "processed" }]);
    });

    it("upserts from the filter's equalities, applying $setOnInsert only when it inserts", async () => {
      const col = ctx.fresh<Transfer>();
      const update = { $setOnInsert: { createdAt: "2024-01-01T00:00:00.000Z" }, $set: { status: "pending" }, $inc: { attempts: 1 } };
      const created = await col.findOneAndUpdate({ _id: "t1", merchantId: "m1", "provider.id": "p1" }, update, { upsert: true });
      expect(created).toEqual({
        _id: "t1",
        merchantId: "m1",
        provider: { id: "p1" },
        createdAt: "2024-01-01T00:00:00.000Z",
        status: "pending",
        attempts: 1,
      });
      const again = await col.findOneAndUpdate(
        { _id: "t1" },
        { ...update, $setOnInsert: { createdAt: "2030-01-01T00:00:00.000Z" } },
        { upsert: true, returnDocument: "before" },
      );
      expect(again).toEqual(created);
      expect(await col.findOne({ _id: "t1" })).toMatchObject({ createdAt: "2024-01-01T00:00:00.000Z", attempts: 2 });
    });

    it("returns null from an inserting upsert when asked for the document before", async () => {
      const col = ctx.fresh<Transfer>();
      expect(await col.findOneAndUpdate({ _id: "t1" }, { $set: { status: "new" } }, { upsert: true, returnDocument: "before" })).toBeNull();
      expect(await col.countDocuments({ _id: "t1" })).toBe(1);
    });

    it("gives an upserted document without a filtered _id a string _id, never an ObjectId", async () => {
      const col = ctx.fresh<Transfer>();
      const created = await col.findOneAndUpdate({ merchantId: "m9" }, { $set: { status: "new" } }, { upsert: true });
      expect(typeof created?._id).toBe("string");
      const [stored] = await col.find({ merchantId: "m9" });
      expect(typeof stored?._id).toBe("string");
      expect(stored).toEqual(created);
    });

    it("updates the first document in the given sort order", async () => {
      const col = ctx.fresh<Transfer>();
      for (const [id, at] of [["t1", "2024-02"], ["t2", "2024-01"], ["t3", "2024-03"]] as const) {
        await col.insertOne({ _id: id, status: "queued", createdAt: at });
      }
      const oldest = await col.findOneAndUpdate({ status: "queued" }, { $set: { status: "working" } }, { sort: { createdAt: 1 } });
      expect(oldest?._id).toBe("t2");
      const newest = await col.findOneAndUpdate({ status: "queued" }, { $set: { status: "working" } }, { sort: { createdAt: -1 } });
      expect(newest?._id).toBe("t3");
    });

    it("refuses updates MongoDB refuses: one path twice, $inc on text, $push on a non-array, a new _id", async () => {
      const col = ctx.fresh<Transfer>();
      await col.insertOne({ _id: "t1", status: "pending", attempts: 1 });
      await expect(col.findOneAndUpdate({ _id: "t1" }, { $set: { attempts: 5 }, $inc: { attempts: 1 } })).rejects.toThrow();
      await expect(col.findOneAndUpdate({ _id: "t1" }, { $set: { provider: {} }, $inc: { "provider.fee": 1 } })).rejects.toThrow();
      await expect(col.findOneAndUpdate({ _id: "t1" }, { $inc: { status: 1 } })).rejects.toThrow();
      await expect(col.findOneAndUpdate({ _id: "t1" }, { $push: { attempts: 1 } })).rejects.toThrow();
      await expect(col.findOneAndUpdate({ _id: "t1" }, { $set: { _id: "t2" } })).rejects.toThrow();
      expect(await col.find({})).toEqual([{ _id: "t1", status: "pending", attempts: 1 }]);
    });

  describe("updateEach", () => {
    it("makes each write whose filter holds, leaves the others, and answers how many matched", async () => {
      const col = ctx.fresh<Transfer>();
      for (const id of ["t1", "t2", "t3"]) await col.insertOne({ _id: id, status: "pending", attempts: 1 });
      const matched = await col.updateEach([
        { filter: { _id: "t1", status: "pending" }, update: { $set: { status: "processed" }, $inc: { attempts: 1 } } },
        { filter: { _id: "t2", status: "processed" }, update: { $set: { status: "failed" } } },
        { filter: { _id: "t3", status: "pending" }, update: { $set: { "provider.status": "sent" }, $unset: { attempts: "" } } },
        { filter: { _id: "t4" }, update: { $set: { status: "processed" } } },
      ]);
      expect(matched).toBe(2);
      expect(await col.find({}, { sort: { _id: 1 } })).toEqual([
        { _id: "t1", status: "processed", attempts: 2 },
        { _id: "t2", status: "pending", attempts: 1 },
        { _id: "t3", status: "pending", provider: { status: "sent" } },
      ]);
      expect(await col.updateEach([])).toBe(0);
    });

    it("fails with a write that breaks a unique index, and makes the others", async () => {
      const col = ctx.fresh<Transfer & { ref: string }>();
      await col.createIndex({ keys: { ref: 1 }, unique: true, name: "ref_unique" });
      const ids = Array.from({ length: 20 }, (_, i) => `t${i}`);
      for (const id of ids) await col.insertOne({ _id: id, status: "pending", ref: id });
      // The first write takes t1's unique ref: it fails; the 19 others are made (and have ended when the call fails: settle-all.test.ts).
      const writes = [{ filter: { _id: "t0" }, update: { $set: { ref: "t1" } } }, ...ids.slice(1).map((id) => ({ filter: { _id: id }, update: { $set: { status: "done" } } }))];
      await expect(col.updateEach(writes)).rejects.toBeInstanceOf(DuplicateKeyError);
      expect((await col.find({}, { sort: { _id: 1 } })).filter((t) => t.status === "done")).toHaveLength(19);
      expect(await col.findOne({ _id: "t0" })).toMatchObject({ ref: "t0", status: "pending" });
    });

    it("makes one write of 30 racing callers per document, whichever comes first", async () => {
      const col = ctx.fresh<Transfer>();
      for (const id of ["t1", "t2"]) await col.insertOne({ _id: id, status: "pending" });
      const racers = Array.from({ length: 30 }, (_, i) =>
        col.updateEach([
          { filter: { _id: "t1", status: "pending" }, update: { $set: { status: `won by ${i}` } } },
          { filter: { _id: "t2", status: "pending" }, update: { $set: { status: `won by ${i}` } } },
        ]),
      );
      expect((await Promise.all(racers)).reduce((a, b) => a + b, 0)).toBe(2);
    });
  });
  });
}
