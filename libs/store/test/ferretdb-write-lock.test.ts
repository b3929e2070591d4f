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

  it("lets writers queued behind the winner read their filter instead of taking the lock: 1 lock for 20 racing writes", async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
    const locks = db.collection<any>("locks_contended_local");
    const counted = withSlowInserts(locks, () => false);
    const lock = new FerretDbWriteLock(counted.collection);
    let status = "approved";
    let sections = 0;
    let reads = 0;
    const move = () =>
      lock.run(
        "refunds/1",
        async () => {
          sections++;
          if (status !== "approved") return "no match";
          status = "processing";
          return "moved";
        },
        { stillMatches: async () => (reads++, status === "approved"), noMatch: "no match" },
      );
    const results = await Promise.all(Array.from({ length: 20 }, move));
    expect(results.filter((r) => r === "moved")).toHaveLength(1);
    expect(results.filter((r) => r === "no match")).toHaveLength(19);
    expect([sections, counted.inserts(), reads]).toEqual([1, 1, 19]);
    expect(await locks.countDocuments({})).toBe(0);
  });

  it("lets a writer that finds another process's lock read its filter once, and answer no match without waiting", async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
    const locks = db.collection<any>("locks_contended_remote");
    const holder = new FerretDbWriteLock(locks);
    const other = new FerretDbWriteLock(locks, { waitMs: 5_000 });
    let status = "approved";
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const winner = holder.run("refunds/2", async () => {
      status = "processing";
      entered();
      await held;
      return "moved";
    });
    await inside;
    const started = Date.now();
    let sections = 0;
    const loser = await other.run("refunds/2", async () => (sections++, "moved"), { stillMatches: async () => status === "approved", noMatch: "no match" });
    expect(loser).toBe("no match");
    expect(sections).toBe(0);
    // It did not wait for the holder (which still holds the lock), nor for its lease.
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await locks.countDocuments({ _id: "refunds/2" })).toBe(1);
    release();
    expect(await winner).toBe("moved");
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
