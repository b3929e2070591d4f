import type { Filter, SortSpec } from "../store.port.ts";
import { isOperatorObject } from "../shared/filter-guard.ts";
import { fieldExpr, sqlScalar, sqlString, type FieldSql } from "./sql-expression.ts";

/** A WHERE clause with its parameters, and whether it selects exactly what the filter does. */
export interface SqlFilter {
  where: string;
  params: (string | number)[];
  /** False when some condition was left to the JavaScript check (document-match.ts). */
  exact: boolean;
}

/**
 * Translates a filter into SQL that the collection's indexes (on its key columns) can serve. The SQL may select a
 * few rows too many, never too few: whatever SQLite cannot express with MongoDB's meaning
 * (`$ne`, `$exists`, conditions on fields that have held arrays, literal sub-documents) is
 * left out here, marked inexact, and checked row by row in JavaScript. `multikey` says
 * whether a path runs through a field that has ever held an array in this collection; `field`
 * names a field in SQL (the collection's key column for an indexed one).
 */
export function toSqlFilter(filter: Filter, multikey: (path: string) => boolean, field: FieldSql = fieldExpr): SqlFilter {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  let exact = true;
  for (const [path, condition] of Object.entries(filter)) {
    const clause =
      path === "$or" || path === "$and"
        ? combined(path, condition as Filter[], multikey, field)
        : multikey(path)
          ? null
          : fieldClause(field(path), condition);
    if (!clause) {
      exact = false;
      continue;
    }
    parts.push(clause.where);
    params.push(...clause.params);
    exact &&= clause.exact;
  }
  return { where: parts.length > 0 ? parts.join(" AND ") : "1", params, exact };
}

function combined(op: "$or" | "$and", subs: Filter[], multikey: (path: string) => boolean, field: FieldSql): SqlFilter | null {
  const translated = subs.map((sub) => toSqlFilter(sub, multikey, field));
  if (op === "$or" && translated.some((t) => t.where === "1")) return null; // one branch unconstrained: all rows
  if (translated.length === 0) return { where: op === "$or" ? "0" : "1", params: [], exact: true };
  return {
    where: `(${translated.map((t) => `(${t.where})`).join(op === "$or" ? " OR " : " AND ")})`,
    params: translated.flatMap((t) => t.params),
    exact: translated.every((t) => t.exact),
  };
}

function fieldClause(expr: string, condition: unknown): SqlFilter | null {
  if (!isOperatorObject(condition)) return equality(expr, condition);
  const parts: SqlFilter[] = [];
  let exact = true;
  for (const [op, operand] of Object.entries(condition)) {
    const clause = operatorClause(expr, op, operand);
    if (clause) parts.push(clause);
    else exact = false;
  }
  if (parts.length === 0) return null;
  return {
    where: parts.map((p) => p.where).join(" AND "),
    params: parts.flatMap((p) => p.params),
    exact: exact && parts.every((p) => p.exact),
  };
}

function operatorClause(expr: string, op: string, operand: unknown): SqlFilter | null {
  switch (op) {
    case "$eq":
      return equality(expr, operand);
    case "$in":
      return membership(expr, operand);
    case "$gt":
    case "$gte":
    case "$lt":
    case "$lte":
      return range(expr, op, operand);
    default:
      return null; // $ne, $nin, $exists: checked in JavaScript
  }
}

function equality(expr: string, value: unknown): SqlFilter | null {
  if (value === null) return { where: `${expr} IS NULL`, params: [], exact: true };
  if (typeof value === "string" || typeof value === "number") return { where: `${expr} = ?`, params: [value], exact: true };
  // true/false are stored as 1/0, which a number would also equal: narrow, then check.
  if (typeof value === "boolean") return { where: `${expr} = ?`, params: [sqlScalar(value)], exact: false };
  return null;
}

function membership(expr: string, operand: unknown): SqlFilter | null {
  if (!Array.isArray(operand)) throw new Error("$in needs an array");
  const scalars = operand.filter((v): v is string | number => typeof v === "string" || typeof v === "number");
  const hasNull = operand.includes(null);
  if (scalars.length + (hasNull ? 1 : 0) !== operand.length) return null;
  const options = [];
  if (scalars.length > 0) options.push(`${expr} IN (${scalars.map(() => "?").join(", ")})`);
  if (hasNull) options.push(`${expr} IS NULL`);
  if (options.length === 0) return { where: "0", params: [], exact: true };
  return { where: options.length > 1 ? `(${options.join(" OR ")})` : (options[0] as string), params: scalars, exact: true };
}

const RANGE_OPERATORS = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=" } as const;

/** SQLite orders numbers before text, MongoDB compares only like types: keep the type too. */
function range(expr: string, op: keyof typeof RANGE_OPERATORS, operand: unknown): SqlFilter | null {
  const sign = RANGE_OPERATORS[op];
  if (typeof operand === "string") {
    return { where: `${expr} ${sign} ? AND typeof(${expr}) = 'text'`, params: [operand], exact: true };
  }
  if (typeof operand === "number") {
    return { where: `${expr} ${sign} ? AND typeof(${expr}) IN ('integer', 'real')`, params: [operand], exact: true };
  }
  return { where: "0", params: [], exact: true }; // MongoDB: a range on null/objects matches nothing here
}

/** ORDER BY for a sort spec; undefined when there is none. */
export function toSqlOrder(sort: SortSpec | undefined, field: FieldSql = fieldExpr): string | undefined {
  const entries = Object.entries(sort ?? {});
  if (entries.length === 0) return undefined;
  return entries.map(([path, dir]) => `${field(path)} ${dir === -1 ? "DESC" : "ASC"}`).join(", ");
}

/**
 * A partial index's filter as an SQL literal (index definitions cannot take parameters).
 * Only what MongoDB allows there: equality, `$exists: true`, `$in`, and `$and`.
 */
export function toSqlPredicate(filter: Filter, fieldSql: FieldSql = fieldExpr): string {
  const parts: string[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (field === "$and") {
      parts.push(...(condition as Filter[]).map((sub) => `(${toSqlPredicate(sub, fieldSql)})`));
      continue;
    }
    const expr = fieldSql(field);
    const literal = (v: unknown): string => {
      if (typeof v === "string") return sqlString(v);
      if (typeof v === "number" && Number.isFinite(v)) return String(v);
      if (typeof v === "boolean") return String(sqlScalar(v));
      throw new Error(`partial index on "${field}": only strings, numbers and booleans are supported`);
    };
    if (!isOperatorObject(condition)) parts.push(`${expr} = ${literal(condition)}`);
    else if ("$exists" in condition && condition.$exists === true) parts.push(`${expr} IS NOT NULL`);
    else if ("$eq" in condition) parts.push(`${expr} = ${literal(condition.$eq)}`);
    else if (Array.isArray(condition.$in)) parts.push(`${expr} IN (${condition.$in.map(literal).join(", ")})`);
    else throw new Error(`partial index on "${field}": unsupported condition ${JSON.stringify(condition)}`);
  }
  return parts.length > 0 ? parts.join(" AND ") : "1";
}
