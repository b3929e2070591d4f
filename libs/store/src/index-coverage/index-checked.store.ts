import type { Logger } from "@payrail/runtime";
import type { Collection, ConditionalUpdate, Filter, FindOneAndUpdateOptions, FindOptions, IndexSpec, SortSpec, Store, Update } from "../store.port.ts";
import { isServed, UnindexedQueryError } from "./index-coverage.rule.ts";
import { settled } from "../shared/call-as-promise.ts";

export interface IndexCheckOptions {
  /** "enforce" fails the query (tests, development); "warn" logs each unserved shape once. */
  mode: "enforce" | "warn";
  logger?: Logger;
}

/**
 * Wraps a store so that every find, count, conditional write and delete must be served by
 * an index declared on that collection in this process (or by `_id`): docs/architecture.md's
 * "no collection scans", checked on every call, in every suite and in `npm start`. It costs
 * a few property lookups per query; the answer for a filter's shape is cached.
 */
export function withIndexCheck(store: Store, options: IndexCheckOptions): Store {
  const declared = new Map<string, IndexSpec[]>();
  const wrapped = new Map<string, Collection<{ _id: string }>>();
  const warned = new Set<string>();
  const served = new Map<string, boolean>();

  const check = (collection: string, operation: string, filter: Filter, sort?: SortSpec, limit?: number): void => {
    // An equality on `_id` is served by the `_id` index whatever else the filter or sort holds
    // (`isServed`): the commonest query (a Get by id) skips building its shape's key.
    if (typeof filter._id === "string") return;
    const indexes = declared.get(collection) ?? [];
    const shape = `${collection}|${indexes.length}|${shapeOf(filter)}|${Object.keys(sort ?? {}).join(",")}|${limit ? 1 : 0}`;
    let ok = served.get(shape);
    if (ok === undefined) {
      ok = isServed(filter, indexes, sort, limit);
      served.set(shape, ok);
    }
    if (ok) return;
    const error = new UnindexedQueryError(collection, operation, filter, sort);
    if (options.mode === "enforce") throw error;
    if (!warned.has(shape)) {
      warned.add(shape);
      options.logger?.warn({ collection, operation }, error.message);
    }
  };

  const wrap = <T extends { _id: string }>(inner: Collection<T>): Collection<T> => ({
    name: inner.name,
    insertOne: (doc) => inner.insertOne(doc),
    // The reads hand back the inner promise (no async frame of their own): a Get passes here.
    findOne: (filter: Filter, opts?: { sort?: SortSpec }) =>
      settled(() => {
        check(inner.name, "findOne", filter, opts?.sort, 1);
        return inner.findOne(filter, opts);
      }),
    find: (filter: Filter, opts?: FindOptions) =>
      settled(() => {
        check(inner.name, "find", filter, opts?.sort, opts?.limit);
        return inner.find(filter, opts);
      }),
    async countDocuments(filter: Filter) {
      check(inner.name, "countDocuments", filter);
      return inner.countDocuments(filter);
    },
    estimatedCount: () => inner.estimatedCount(),
    async findOneAndUpdate(filter: Filter, update: Update, opts?: FindOneAndUpdateOptions) {
      check(inner.name, "findOneAndUpdate", filter, opts?.sort, 1);
      return inner.findOneAndUpdate(filter, update, opts);
    },
    async updateEach(writes: readonly ConditionalUpdate[]) {
      for (const { filter } of writes) check(inner.name, "updateEach", filter, undefined, 1);
      return inner.updateEach(writes);
    },
    async deleteOne(filter: Filter) {
      check(inner.name, "deleteOne", filter);
      return inner.deleteOne(filter);
    },
    async deleteOldest(field: string, before: string | number, opts: { limit: number }) {
      check(inner.name, "deleteOldest", { [field]: { $lt: before } }, { [field]: 1 }, opts.limit);
      return inner.deleteOldest(field, before, opts);
    },
    async createIndex(spec: IndexSpec) {
      await inner.createIndex(spec);
      const list = declared.get(inner.name) ?? [];
      if (!list.some((i) => JSON.stringify(i.keys) === JSON.stringify(spec.keys))) declared.set(inner.name, [...list, spec]);
    },
    async dropIndex(name: string) {
      await inner.dropIndex(name);
      declared.set(inner.name, (declared.get(inner.name) ?? []).filter((i) => i.name !== name));
    },
  });

  const checked: Store = {
    collection<T extends { _id: string }>(name: string): Collection<T> {
      let collection = wrapped.get(name);
      if (!collection) {
        collection = wrap(store.collection<{ _id: string }>(name));
        wrapped.set(name, collection);
      }
      return collection as unknown as Collection<T>;
    },
    nextSequence: (name) => store.nextSequence(name),
    reserveSequence: (name, count) => store.reserveSequence(name, count),
    ping: () => store.ping(),
    drop: () => store.drop(),
    close: () => store.close(),
  };
  unchecked.set(checked, store);
  return checked;
}

const unchecked = new WeakMap<Store, Store>();

/**
 * The store behind a checked one, for tests that inspect what services wrote (counting all of
 * a collection's documents, say): queries a service would never make. Never for service code.
 */
export function uncheckedStore(store: Store): Store {
  return unchecked.get(store) ?? store;
}

/** The filter's fields and operators, without values: what decides whether an index serves it. */
function shapeOf(filter: Filter): string {
  let shape = "";
  for (const key in filter) {
    const condition = filter[key];
    shape += key;
    if (key === "$or" || key === "$and") shape += `[${(condition as Filter[]).map(shapeOf).join("|")}]`;
    else if (condition !== null && typeof condition === "object" && !Array.isArray(condition)) shape += `{${Object.keys(condition).join(",")}}`;
    else shape += condition === null ? "=null" : "=";
    shape += ";";
  }
  return shape;
}
