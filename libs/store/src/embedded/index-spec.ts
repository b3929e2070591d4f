import type { Filter, IndexSpec } from "../store.port.ts";

/** An index as the embedded store records it (in its `_indexes` table). */
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

export function sameKeys(a: StoredIndex, b: StoredIndex): boolean {
  return JSON.stringify(a.keys) === JSON.stringify(b.keys);
}
