import type { Filter, FieldCondition } from "../store.port.ts";

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
