/** How a query, a sort or an index names a field in SQL (key-columns.ts: a column, or fieldExpr). */
export type FieldSql = (path: string) => string;

/**
 * The SQL expression for a document field read from its JSON: for a field without a key
 * column (key-columns.ts; an indexed field has one), and to fill a new key column. `_id` is a
 * real column (the table's unique key).
 */
export function fieldExpr(path: string): string {
  let expr = expressions.get(path);
  if (expr === undefined) {
    expr = path === "_id" ? "_id" : jsonExtract("doc", path);
    expressions.set(path, expr);
  }
  return expr;
}

/** `json_extract` of `path` from the JSON text `source` (a column, or a statement's parameter). */
export function jsonExtract(source: string, path: string): string {
  return `json_extract(${source}, ${sqlString(jsonPath(path))})`;
}

/** Field paths come from code, so they are few: remember each one's expression. */
const expressions = new Map<string, string>();

/** `a.b` → `$.a.b`; segments that are not plain identifiers are quoted (`$."x-y"`). */
function jsonPath(path: string): string {
  const segments = path.split(".");
  if (segments.some((s) => s === "" || s.startsWith("$") || s.includes('"'))) throw new Error(`invalid field path "${path}"`);
  return "$" + segments.map((s) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s) ? `.${s}` : `."${s}"`)).join("");
}

/** The SQLite name of a collection's index. */
export function sqlIndexName(table: string, index: string): string {
  return `${table}$${index}`;
}

/** A quoted SQL identifier (table and index names come from checked collection and index names). */
export function sqlName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A JSON scalar as SQLite compares it: booleans are stored by json_extract as 1 and 0. */
export function sqlScalar(value: string | number | boolean): string | number {
  return typeof value === "boolean" ? (value ? 1 : 0) : value;
}
