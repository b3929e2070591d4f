import type { Filter } from "../store.port.ts";
import { isOperatorObject } from "../shared/filter-guard.ts";

type Doc = Record<string, unknown>;

/**
 * MongoDB's matching rules in JavaScript, the final word on which rows a query returns.
 * SQL narrows the candidates through the indexes (sql-filter.ts) and may keep a few that do
 * not match (an array field, a boolean stored as 1); this check is exact. The rules kept:
 * `null` matches null or missing; an array field matches when the array or any element
 * matches; `$ne`/`$nin` are the negation of equality; ranges compare only values of the
 * operand's own type (numbers with numbers, strings with strings), as MongoDB's type
 * bracketing does.
 */
export function matches(doc: Doc, filter: Filter): boolean {
  for (const [field, condition] of Object.entries(filter)) {
    if (field === "$or") {
      if (!(condition as Filter[]).some((sub) => matches(doc, sub))) return false;
    } else if (field === "$and") {
      if (!(condition as Filter[]).every((sub) => matches(doc, sub))) return false;
    } else if (field.startsWith("$")) {
      throw new Error(`unsupported filter operator ${field}`);
    } else if (isOperatorObject(condition)) {
      for (const [op, operand] of Object.entries(condition)) if (!operatorHolds(doc, field, op, operand)) return false;
    } else if (!topLevelEqual(doc, field, condition) && !equals(values(doc, field), condition)) {
      return false;
    }
  }
  return true;
}

/** The common case answered without collecting values: a top-level field holding the very string or number. */
function topLevelEqual(doc: Doc, field: string, condition: unknown): boolean {
  return (typeof condition === "string" || typeof condition === "number") && !field.includes(".") && doc[field] === condition;
}

function operatorHolds(doc: Doc, field: string, op: string, operand: unknown): boolean {
  const found = values(doc, field);
  switch (op) {
    case "$eq":
      return equals(found, operand);
    case "$ne":
      return !equals(found, operand);
    case "$in":
      return list(op, operand).some((v) => equals(found, v));
    case "$nin":
      return !list(op, operand).some((v) => equals(found, v));
    case "$gt":
    case "$gte":
    case "$lt":
    case "$lte":
      return found.some((v) => compares(v, op, operand));
    case "$exists":
      return operand ? found.length > 0 : found.length === 0;
    default:
      throw new Error(`unsupported filter operator ${op} on "${field}"`);
  }
}

/**
 * The values a dotted path reaches: through arrays of sub-documents, and at the end both an
 * array itself and each of its elements (so `{tags: "y"}` matches `tags: ["x", "y"]`).
 * Empty when the path is missing.
 */
export function values(doc: unknown, path: string): unknown[] {
  let nodes: unknown[] = [doc];
  for (const key of path.split(".")) {
    const next: unknown[] = [];
    for (const node of nodes) {
      if (Array.isArray(node)) {
        for (const item of node) if (isDoc(item) && key in item) next.push(item[key]);
      } else if (isDoc(node) && key in node) {
        next.push(node[key]);
      }
    }
    nodes = next;
  }
  return nodes.flatMap((v) => (Array.isArray(v) ? [v, ...v] : [v]));
}

function equals(found: unknown[], wanted: unknown): boolean {
  if (wanted === null) return found.length === 0 || found.some((v) => v === null);
  return found.some((v) => sameValue(v, wanted));
}

function compares(value: unknown, op: string, operand: unknown): boolean {
  const comparable =
    (typeof value === "number" && typeof operand === "number") || (typeof value === "string" && typeof operand === "string");
  if (!comparable) return false;
  const [a, b] = [value as number | string, operand as number | string];
  if (op === "$gt") return a > b;
  if (op === "$gte") return a >= b;
  if (op === "$lt") return a < b;
  return a <= b;
}

/** Structural equality of JSON values (what MongoDB compares for documents and arrays). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (!isDoc(a) || !isDoc(b)) return false;
  const [ka, kb] = [Object.keys(a), Object.keys(b)];
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameValue(a[k], b[k]));
}

function isDoc(value: unknown): value is Doc {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function list(op: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${op} needs an array`);
  return value;
}
