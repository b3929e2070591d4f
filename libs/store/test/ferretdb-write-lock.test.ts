import { setTimeout as sleep } from "node:timers/promises";
import { MongoClient, type Collection } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import { FerretDbWriteLock } from "../src/mongo/ferretdb-write-lock.ts";
import { mongoTestUrl, uniqueTestDbName } from "../src/testing/index.ts";

const server = await mongoTestUrl();

/** `locks` whose inserts answer 400 ms late (`slow` says which, by their number from 1), as on a loaded machine. */
function withSlowInserts<T extends object>(locks: Collection<T>, slow: (insert: number) => boolean): { collection: Collection<T>; inserts: () => number } {
  let inserts = 0;
  const collection = new Proxy(locks, {
    get(target, property) {
      if (property === "insertOne") {
        return async (...args: Parameters<Collection<T>["insertOne"]>) => {
          const out = await target.insertOne(...args);
          if (slow(++inserts)) await sleep(400);
          return out;
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { collection, inserts: () => inserts };
}

/*
 * The per-document lock that makes FerretDB's conditional writes atomic, on the test server's
 * own `store_locks`-like collection (the lock only inserts, reads and deletes by `_id`, which
 * MongoDB and FerretDB alike do atomically).
 */
describe.skipIf(!server.url)("FerretDB write lock", () => {
  const client = new MongoClient(server.url ?? "mongodb://127.0.0.1:1", { serverSelectionTimeoutMS: 2_000 });
  const db = client.db(uniqueTestDbName());
  afterAll(async () => {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
    await server.stop();
  });

  it("takes the lock again when taking it used up its lease, and writes once under a live lease", async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the lock's own document shape is private to it
    const locks = db.collection<any>("locks_slow_insert");
    // The first insert answers only after the lease has run out.
    const slow = withSlowInserts(locks, (n) => n === 1);
    const lock = new FerretDbWriteLock(slow.collection, { leaseMs: 300, waitMs: 5_000 });
    const given: number[] = [];
    expect(await lock.run("doc/1", async (maxTimeMS) => given.push(maxTimeMS))).toBe(1);
    expect(slow.inserts()).toBe(2);
    expect(given).toHaveLength(1);
    expect(given[0]).toBeGreaterThan(0);
    // Released after the write: the next writer takes it at once.
    expect(await locks.countDocuments({})).toBe(0);
  });

  it("gives up with the store unavailable when every take uses up the lease within the wait", async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
    const locks = db.collection<any>("locks_always_slow");
    const slow = withSlowInserts(locks, () => true);
    const lock = new FerretDbWriteLock(slow.collection, { leaseMs: 300, waitMs: 1_000 });
    let wrote = false;
    await expect(lock.run("doc/1", async () => (wrote = true))).rejects.toMatchObject({ name: "StoreUnavailableError" });
    expect(wrote).toBe(false);
  });
});
