import type { Filter, IndexSpec, SortSpec } from "../store.port.ts";
import { isOperatorObject } from "../shared/filter-guard.ts";

/** Conditions an index can seek on; `$ne`, `$nin` and `$exists` make the database scan. */
const SEEKABLE = new Set(["$eq", "$in", "$gt", "$gte", "$lt", "$lte"]);

/**
 * Whether a query can be answered through an index, by MongoDB's prefix rule: the filter
 * constrains `_id` or the first key of some declared index with an equality, `$in` or a
 * range. An `$or` is served when each branch is. With no usable condition, a query whose
 * sort begins with an index's first key and that has a limit reads only the head of that
 * index (MongoDB's IXSCAN for a sort), so it is served too; nothing else is.
 */
export function isServed(filter: Filter, indexes: readonly IndexSpec[], sort?: SortSpec, limit?: number): boolean {
  const leading = new Set(["_id", ...indexes.map((i) => Object.keys(i.keys)[0] as string)]);
  if (constrainsAny(filter, leading)) return true;
  const firstSort = Object.keys(sort ?? {})[0];
  return firstSort !== undefined && limit !== undefined && limit > 0 && leading.has(firstSort) && Object.keys(filter).length === 0;
}

function constrainsAny(filter: Filter, fields: ReadonlySet<string>): boolean {
  for (const [field, condition] of Object.entries(filter)) {
    if (field === "$or") {
      const branches = condition as Filter[];
      if (branches.length > 0 && branches.every((b) => constrainsAny(b, fields))) return true;
    } else if (field === "$and") {
      if ((condition as Filter[]).some((b) => constrainsAny(b, fields))) return true;
    } else if (fields.has(field) && seekable(condition)) {
      return true;
    }
  }
  return false;
}

function seekable(condition: unknown): boolean {
  if (!isOperatorObject(condition)) return true; // plain equality, null included
  return Object.keys(condition).some((op) => SEEKABLE.has(op));
}

/** A query that no declared index serves: a collection scan waiting to happen. */
export class UnindexedQueryError extends Error {
  override readonly name = "UnindexedQueryError";
  constructor(collection: string, operation: string, filter: Filter, sort: SortSpec | undefined) {
    const fields = Object.keys(filter).join(", ") || "(none)";
    const sorted = sort ? `, sort on ${Object.keys(sort).join(", ")}` : "";
    super(
      `${operation} on "${collection}" filters on ${fields}${sorted}, which no declared index serves: ` +
        `declare one beside the repository (collection.createIndex) before querying`,
    );
  }
}
