import type { Datastore as Nedb } from "./nedb-datastore.ts";
import { match } from "@seald-io/nedb/lib/model.js";
import type { Filter, IndexSpec } from "../store.port.ts";
import { getPath } from "./dotted-path.ts";
import { toNedbQuery } from "./nedb-query.ts";
import { countDocs } from "./nedb-cursor.ts";

type Doc = Record<string, unknown>;

/** An index as the embedded store keeps it (persisted, so it holds across restarts). */
export interface StoredIndex {
  name: string;
  keys: Record<string, 1 | -1>;
  unique: boolean;
  partialFilterExpression?: Filter;
}

/** MongoDB's default index name: `a_1_b_-1`. */
export function indexName(spec: IndexSpec): string {
  return spec.name ?? Object.entries(spec.keys).map(([field, dir]) => `${field}_${dir}`).join("_");
}

export function toStoredIndex(spec: IndexSpec): StoredIndex {
  const stored: StoredIndex = { name: indexName(spec), keys: { ...spec.keys }, unique: spec.unique ?? false };
  if (spec.partialFilterExpression) stored.partialFilterExpression = structuredClone(spec.partialFilterExpression);
  return stored;
}

export function sameIndex(a: StoredIndex, b: StoredIndex): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Name of the first unique index (`_id_` included) that `doc` would break if written, or
 * null. Other documents are those with another `_id`, so an update may keep its own keys.
 * A missing key counts as null, as in MongoDB: two documents without the field collide
 * unless a partial filter leaves them out. Callers hold the collection's write lock.
 */
export async function findUniqueViolation(ds: Nedb, indexes: StoredIndex[], doc: Doc, isNew: boolean): Promise<string | null> {
  if (isNew && (await countDocs(ds, { _id: doc._id as string })) > 0) return "_id_";
  for (const index of indexes) {
    if (!index.unique || !inIndex(index, doc)) continue;
    const sameKeys: Filter = { _id: { $ne: doc._id as string } };
    for (const field of Object.keys(index.keys)) sameKeys[field] = keyValue(doc, field) as Filter[string];
    // A one-element $or is an AND that keeps the partial filter's own conditions apart.
    if (index.partialFilterExpression) sameKeys.$or = [index.partialFilterExpression];
    if ((await countDocs(ds, sameKeys)) > 0) return index.name;
  }
  return null;
}

/** True when existing documents already break `index` (MongoDB then refuses to build it). */
export function hasExistingDuplicates(docs: Doc[], index: StoredIndex): boolean {
  const seen = new Set<string>();
  for (const doc of docs) {
    if (!inIndex(index, doc)) continue;
    const key = JSON.stringify(Object.keys(index.keys).map((field) => keyValue(doc, field)));
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

function inIndex(index: StoredIndex, doc: Doc): boolean {
  return !index.partialFilterExpression || match(doc, toNedbQuery(index.partialFilterExpression));
}

function keyValue(doc: Doc, field: string): unknown {
  return getPath(doc, field) ?? null;
}
