import type { Filter } from "../store.port.ts";
import { isOperatorObject } from "../shared/filter-guard.ts";

type Query = Record<string, unknown>;

/**
 * Translates a port filter into an nedb query with MongoDB's semantics where nedb differs:
 * nedb has no `$eq`, its `null` does not match a missing field, and its `$ne`/`$nin` on an
 * array field test elements one by one. Conditions are expressed through `$or`/`$not` of
 * plain equalities, which nedb evaluates exactly like MongoDB (an array field matches when
 * any element matches). Simple equalities stay top-level so nedb can use its indexes.
 */
export function toNedbQuery(filter: Filter): Query {
  const top: Query = {};
  const and: Query[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (field === "$or") {
      and.push({ $or: (condition as Filter[]).map(toNedbQuery) });
    } else if (field.startsWith("$")) {
      throw new Error(`unsupported filter operator ${field}`);
    } else if (isOperatorObject(condition)) {
      for (const [op, value] of Object.entries(condition)) and.push(operatorClause(field, op, value));
    } else if (isIndexablePrimitive(condition)) {
      top[field] = condition;
    } else {
      and.push(equals(field, condition));
    }
  }
  return and.length > 0 ? { ...top, $and: and } : top;
}

function operatorClause(field: string, op: string, value: unknown): Query {
  switch (op) {
    case "$eq":
      return equals(field, value);
    case "$ne":
      return { $not: equals(field, value) };
    case "$in":
      return { $or: asList(op, value).map((v) => equals(field, v)) };
    case "$nin":
      return { $not: { $or: asList(op, value).map((v) => equals(field, v)) } };
    case "$gt":
    case "$gte":
    case "$lt":
    case "$lte":
      return { [field]: { [op]: value } };
    case "$exists":
      return { [field]: { $exists: Boolean(value) } };
    default:
      throw new Error(`unsupported filter operator ${op} on "${field}"`);
  }
}

/** Equality as MongoDB means it: `null` also matches a missing field. */
function equals(field: string, value: unknown): Query {
  if (value === null) return { $or: [{ [field]: null }, { [field]: { $exists: false } }] };
  return { [field]: value };
}

function isIndexablePrimitive(value: unknown): boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function asList(op: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${op} needs an array`);
  return value;
}
