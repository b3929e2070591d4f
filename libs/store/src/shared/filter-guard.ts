import type { Filter } from "../store.port.ts";

/**
 * Rejects `undefined` anywhere in a filter. The MongoDB driver (with `ignoreUndefined`) would
 * silently drop such a condition, so `{ merchantId: undefined }` would match every tenant's
 * documents; failing loudly turns that bug into a visible error in both adapters alike.
 */
export function assertDefinedFilter(filter: Filter, collection: string): void {
  // Keys, not entries: every read passes here, and entries cost an array per condition.
  for (const field of Object.keys(filter)) {
    const condition = filter[field];
    if (condition === undefined) {
      throw new Error(`filter on ${collection}: condition for "${field}" is undefined`);
    }
    if (field === "$or" || field === "$and") {
      for (const sub of condition as Filter[]) assertDefinedFilter(sub, collection);
    } else if (isOperatorObject(condition)) {
      for (const op of Object.keys(condition)) {
        if ((condition as Record<string, unknown>)[op] === undefined) throw new Error(`filter on ${collection}: "${field}.${op}" is undefined`);
      }
    }
  }
}

/** True for `{ $gt: 1, ... }`-style conditions (as opposed to a literal sub-document). */
export function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith("$"));
}
