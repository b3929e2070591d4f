import { silentLogger } from "@payrail/runtime";
import { describe, expect, it } from "vitest";
import { createEmbeddedStore, insertIfAbsent, insertOrGet } from "../src/index.ts";

describe("insert-or-conflict helpers", () => {
  it("let exactly one of 20 racing inserts win, and answer the winner's document to all", async () => {
    const store = createEmbeddedStore({ logger: silentLogger() });
    const claims = store.collection<{ _id: string; holder: number }>("claims");
    const results = await Promise.all(Array.from({ length: 20 }, (_, holder) => insertOrGet(claims, { _id: "chk_1", holder })));
    const winners = results.filter((r) => r.inserted);
    expect(winners).toHaveLength(1);
    for (const r of results) expect(r.doc).toEqual(winners[0]!.doc);
    expect(await insertIfAbsent(claims, { _id: "chk_1", holder: 99 })).toBe(false);
    expect(await insertIfAbsent(claims, { _id: "chk_2", holder: 99 })).toBe(true);
    await store.close();
  });

  it("find the holder by another unique key", async () => {
    const store = createEmbeddedStore({ logger: silentLogger() });
    const users = store.collection<{ _id: string; phone: string }>("users");
    await users.createIndex({ keys: { phone: 1 }, unique: true });
    await insertOrGet(users, { _id: "u1", phone: "+15555550100" }, { phone: "+15555550100" });
    const second = await insertOrGet(users, { _id: "u2", phone: "+15555550100" }, { phone: "+15555550100" });
    expect(second).toEqual({ inserted: false, doc: { _id: "u1", phone: "+15555550100" } });
    await store.close();
  });
});
