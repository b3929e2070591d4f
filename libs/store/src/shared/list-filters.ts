import type { Collection, Filter, FieldCondition, IndexSpec } from "../store.port.ts";

/**
 * The `$or` that continues a newest-first page (sorted `{ [field]: -1, _id: -1 }`) after the
 * record `after`: older by `field`, or as old with a smaller id, so records sharing a timestamp
 * are neither skipped nor repeated. Served by any index ending in `field, _id`.
 */
export function olderThan<F extends string>(field: F, after: { _id: string } & Record<F, string | number>): Filter[] {
  const at = after[field];
  return [{ [field]: { $lt: at } }, { [field]: at, _id: { $lt: after._id } }];
}

/** A list's `from` (inclusive) / `to` (exclusive) window as one field's condition; undefined when neither is given. */
export function within(window: { from?: string | undefined; to?: string | undefined }): FieldCondition | undefined {
  if (window.from === undefined && window.to === undefined) return undefined;
  return { ...(window.from !== undefined ? { $gte: window.from } : {}), ...(window.to !== undefined ? { $lt: window.to } : {}) };
}

/** A list's amount range (both ends inclusive, integer cents) as one field's condition; undefined when neither end is given. */
export function centsWithin(range: { minCents?: number | undefined; maxCents?: number | undefined }): FieldCondition | undefined {
  if (range.minCents === undefined && range.maxCents === undefined) return undefined;
  return { ...(range.minCents !== undefined ? { $gte: range.minCents } : {}), ...(range.maxCents !== undefined ? { $lte: range.maxCents } : {}) };
}

/**
 * Creates `spec` (a list's index widened by trailing keys, under a new name), then drops the index it
 * replaces: the wider one serves every query the narrower did, so no query goes unserved between
 * the two calls, and the store keeps one index per list rather than two.
 */
export async function widenIndex<T extends { _id: string }>(collection: Collection<T>, spec: IndexSpec & { name: string }, replaces: string): Promise<void> {
  await collection.createIndex(spec);
  await collection.dropIndex(replaces);
}
