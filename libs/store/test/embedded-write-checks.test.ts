import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { createEmbeddedStore, DuplicateKeyError, type Store } from "../src/index.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const logger = silentLogger();
const tempDir = tempDirs("payrail-write-checks-");

interface Merchant {
  _id: string;
  email?: string;
  tags?: string[] | string;
}

/**
 * The embedded store checks an inserted document's null unique keys and array paths inside its
 * write (write-checks.ts), on what it read of the object when insertOne was called: the caller may
 * change the object before the write runs, and the stored text is the object as it was then.
 */
describe("the embedded store's checks of an insert", () => {
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  async function merchants() {
    store = createEmbeddedStore({ dir: await tempDir(), logger });
    const col = store.collection<Merchant>("merchants");
    await col.createIndex({ keys: { email: 1 }, unique: true });
    await col.insertOne({ _id: "no-email" });
    return col;
  }

  it("reads the document as it was when insertOne was called, not as the caller changed it after", async () => {
    const col = await merchants();
    const withEmail: Merchant = { _id: "m1", email: "a@x.io", tags: ["vip"] };
    const inserted = col.insertOne(withEmail);
    // Changed before the write runs: without its email it would collide with "no-email", and as a
    // plain string its tags would not be an array path.
    delete withEmail.email;
    withEmail.tags = "vip";
    await inserted;

    expect(await col.findOne({ _id: "m1" })).toEqual({ _id: "m1", email: "a@x.io", tags: ["vip"] });
    expect((await col.find({ tags: "vip" })).map((m) => m._id)).toEqual(["m1"]);
  });

  it("works the checks out again when an index came between the call and the write", async () => {
    store = createEmbeddedStore({ dir: await tempDir(), logger });
    const col = store.collection<Merchant>("merchants");
    await col.insertOne({ _id: "no-email" });
    // Both queued before either runs: the insert's checks, read at its call, knew no unique index.
    const indexed = col.createIndex({ keys: { email: 1 }, unique: true });
    const inserted = col.insertOne({ _id: "also-no-email" });
    await indexed;
    await expect(inserted).rejects.toBeInstanceOf(DuplicateKeyError);
    expect(await col.countDocuments({})).toBe(1);
  });

  it("keys a value as its stored JSON: a date by its ISO text, a number JSON cannot write as null", async () => {
    store = createEmbeddedStore({ dir: await tempDir(), logger });
    const col = store.collection<{ _id: string; merchantId?: unknown; at?: unknown }>("stamps");
    await col.createIndex({ keys: { merchantId: 1, at: 1 }, unique: true });
    await col.insertOne({ _id: "1", at: "2026-11-30T00:00:00.000Z" });
    await expect(col.insertOne({ _id: "2", at: new Date("2026-11-30T00:00:00.000Z") })).rejects.toBeInstanceOf(DuplicateKeyError);
    await col.insertOne({ _id: "3", merchantId: null, at: null });
    await expect(col.insertOne({ _id: "4", merchantId: Number.NaN })).rejects.toBeInstanceOf(DuplicateKeyError);
  });

  it("matches a partial index's filter on the document as its JSON holds it", async () => {
    store = createEmbeddedStore({ dir: await tempDir(), logger });
    const col = store.collection<{ _id: string; merchantId?: string; at?: unknown }>("stamps");
    await col.createIndex({ keys: { merchantId: 1 }, unique: true, partialFilterExpression: { at: "2026-11-30T00:00:00.000Z" } });
    await col.insertOne({ _id: "1", at: "2026-11-30T00:00:00.000Z" });
    await expect(col.insertOne({ _id: "2", at: new Date("2026-11-30T00:00:00.000Z") })).rejects.toBeInstanceOf(DuplicateKeyError);
    await col.insertOne({ _id: "3", at: "2025-01-01T00:00:00.000Z" });
  });
});
