import type { Collection as DriverCollection, Filter as DriverFilter, UpdateFilter } from "mongodb";
import { StoreUnavailableError, type Filter, type SortSpec } from "../store.port.ts";
import { isOperatorObject } from "../shared/filter-guard.ts";
import type { FerretDbWriteLock } from "./ferretdb-write-lock.ts";

type Doc = { _id: string } & Record<string, unknown>;

/** How many matching `_id`s one round of a filter without `_id` tries to claim. */
const CANDIDATES = 8;

/**
 * Every sort FerretDB is given makes it read the whole (pushed-down) result before writing.
 * Without one, its PostgreSQL backend keeps the query's pooled connection while it takes a
 * second one for the write: when more findAndModify calls run at once than its pool has
 * connections (50 by default, 20 as infra-up.sh runs it), they can all hold one and wait for
 * another, and the whole server hangs for good (seen with 30 unsorted calls on 30 documents
 * and a pool of 5, and with 50 on one document and a pool of 20; never with a sort).
 */
const ID_ORDER: SortSpec = { _id: 1 };

/** The `_id` a filter pins by equality (`{_id: "x"}` or `{_id: {$eq: "x"}}`), else undefined. */
export function pinnedId(filter: Filter): string | undefined {
  const id = filter._id;
  if (typeof id === "string") return id;
  if (isOperatorObject(id) && Object.keys(id).length === 1 && typeof id["$eq"] === "string") return id["$eq"];
  return undefined;
}

export interface FerretWriteOptions {
  upsert: boolean;
  returnDocument: "before" | "after";
  sort?: SortSpec;
}

/**
 * findOneAndUpdate on FerretDB, atomic through per-document locks (`<collection>/<_id>`):
 * - a filter that pins `_id` locks that document and writes;
 * - any other filter first finds the matching `_id`s (in the requested order), then claims them
 *   one at a time: under the document's lock it writes with `{_id, $and: [filter]}`, so a
 *   document another writer changed meanwhile no longer matches and the next one is tried.
 *   Exactly one of many racing `{status: "open"}` updates wins, as on MongoDB;
 * - an upsert that matched nothing inserts under the lock of its new `_id`, merged into the
 *   filter so it can only insert (two racing upserts of a filter without `_id` may both insert,
 *   as they may on MongoDB without a unique index).
 */
export async function ferretFindOneAndUpdate(
  col: DriverCollection<Doc>,
  lock: FerretDbWriteLock,
  collection: string,
  filter: Filter,
  update: UpdateFilter<Doc>,
  options: FerretWriteOptions,
): Promise<Doc | null> {
  const write = (id: string, driverFilter: Filter, upsert: boolean) =>
    lock.run(
      `${collection}/${id}`,
      (maxTimeMS) =>
        col.findOneAndUpdate(driverFilter as DriverFilter<Doc>, update, {
          upsert,
          returnDocument: options.returnDocument,
          sort: options.sort ?? ID_ORDER,
          maxTimeMS,
        }),
      // An upsert always has something to do.
      upsert ? undefined : { stillMatches: () => matches(col, driverFilter), noMatch: null },
    );
  const id = pinnedId(filter);
  if (id !== undefined) return write(id, filter, options.upsert);

  const claimed = await claimFirst(col, filter, options.sort, lock.waitMs, (candidate) => write(candidate, { _id: candidate, $and: [filter] }, false));
  if (claimed || !options.upsert) return claimed;

  // The adapter gives every upsert without a pinned `_id` a string `_id` (withUpsertId).
  const newId = (update.$setOnInsert as Record<string, unknown> | undefined)?.["_id"] ?? (update.$set as Record<string, unknown> | undefined)?.["_id"];
  if (typeof newId !== "string") return write(`~upsert`, filter, true);
  return write(newId, filter._id === undefined ? { ...filter, _id: newId } : filter, true);
}

/** deleteOne on FerretDB, with the same per-document locking as ferretFindOneAndUpdate. */
export async function ferretDeleteOne(col: DriverCollection<Doc>, lock: FerretDbWriteLock, collection: string, filter: Filter): Promise<boolean> {
  const remove = (id: string, driverFilter: Filter) =>
    lock.run(
      `${collection}/${id}`,
      async (maxTimeMS) => {
        const removed = await col.findOneAndDelete(driverFilter as DriverFilter<Doc>, { sort: ID_ORDER, maxTimeMS });
        return removed !== null;
      },
      { stillMatches: () => matches(col, driverFilter), noMatch: false },
    );
  const id = pinnedId(filter);
  if (id !== undefined) return remove(id, filter);
  const removed = await claimFirst(col, filter, undefined, lock.waitMs, async (candidate) => ((await remove(candidate, { _id: candidate, $and: [filter] })) ? true : null));
  return removed ?? false;
}

/** Whether a document matches `filter` now (a contended writer's way out: ContendedWrite). */
async function matches(col: DriverCollection<Doc>, filter: Filter): Promise<boolean> {
  return (await col.findOne(filter as DriverFilter<Doc>, { projection: { _id: 1 } })) !== null;
}

/**
 * Finds the `_id`s matching `filter` and offers them to `claim` in order until one claim
 * succeeds (non-null). Returns null once nothing matches any more.
 */
async function claimFirst<R>(
  col: DriverCollection<Doc>,
  filter: Filter,
  sort: SortSpec | undefined,
  waitMs: number,
  claim: (id: string) => Promise<R | null>,
): Promise<R | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const candidates = await col
      .find(filter as DriverFilter<Doc>, { sort: sort ?? ID_ORDER, limit: CANDIDATES, projection: { _id: 1 } })
      .toArray();
    if (candidates.length === 0) return null;
    for (const { _id } of candidates) {
      const result = await claim(_id);
      if (result !== null) return result;
    }
    // Every candidate changed under us: other writers are busy on these documents; look again.
    if (Date.now() > deadline) throw new StoreUnavailableError("timed out claiming a document for a conditional write");
  }
}
