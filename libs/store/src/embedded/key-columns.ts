import type Database from "better-sqlite3";
import type { Filter } from "../store.port.ts";
import type { StoredIndex } from "./index-spec.ts";
import { fieldExpr, jsonExtract, sqlIndexName, sqlName, type FieldSql } from "./sql-expression.ts";
import { toSqlPredicate } from "./sql-filter.ts";

/**
 * Indexed fields live in columns of their own ("key columns", `k:<path>`), each holding what
 * `json_extract(doc, '$.<path>')` gives, and the indexes are built on those columns rather
 * than on `json_extract` expressions of `doc`. SQLite maintains on an UPDATE every index that
 * reads a column the UPDATE sets: with expression indexes that was every index of the
 * collection on every write, since every write sets `doc`. With key columns a write sets only
 * the columns whose values changed, and only their indexes are touched: an update of a
 * checkout that changes no indexed field costs 1.1× one of a document without indexes, where
 * its seven expression indexes made it 3.3× (bench/sqlite-index-cost.ts).
 *
 * The values are computed by SQLite's own `json_extract` from the document's text as it is
 * written, so a key column holds exactly what the expression index held (booleans as 1 and 0,
 * objects and arrays as JSON text, NULL for a missing field or a path through an array).
 */

/** A key column's SQL name (remembered: queries name their fields on every call). */
export function keyColumn(path: string): string {
  let name = columns.get(path);
  if (name === undefined) columns.set(path, (name = sqlName(`k:${path}`)));
  return name;
}

const columns = new Map<string, string>();

/** The SQL for a field of a collection whose key columns are `keyPaths`: its column, else the document's expression. */
export function fieldSqlOf(keyPaths: ReadonlySet<string>): FieldSql {
  return (path) => (keyPaths.has(path) ? keyColumn(path) : fieldExpr(path));
}

/** The fields an index reads: its keys and those of its partial filter. */
export function indexedPaths(index: StoredIndex): string[] {
  return [...Object.keys(index.keys), ...(index.partialFilterExpression ? filterPaths(index.partialFilterExpression) : [])];
}

function filterPaths(filter: Filter): string[] {
  return Object.entries(filter).flatMap(([field, condition]) => (field === "$and" ? (condition as Filter[]).flatMap(filterPaths) : [field]));
}

/** The key columns a table has (read from its schema). */
export function keyPathsOf(db: Database.Database, table: string): Set<string> {
  const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[];
  return new Set(columns.filter((c) => c.name.startsWith("k:")).map((c) => c.name.slice(2)));
}

/**
 * Adds the key columns `paths` the table lacks, filled from each row's document, and adds them
 * to `keyPaths`; answers those it added (a caller whose transaction fails takes them out again).
 */
export function addKeyColumns(db: Database.Database, table: string, keyPaths: Set<string>, paths: readonly string[]): string[] {
  const added = [...new Set(paths)].filter((path) => !keyPaths.has(path) && path !== "_id");
  if (added.length === 0) return added;
  // No declared type: no affinity, so a column keeps json_extract's TEXT, INTEGER, REAL or NULL as given.
  for (const path of added) db.exec(`ALTER TABLE ${sqlName(table)} ADD COLUMN ${keyColumn(path)}`);
  // One pass over the rows for all of them (it rewrites each row once).
  db.exec(`UPDATE ${sqlName(table)} SET ${added.map((path) => `${keyColumn(path)} = ${fieldExpr(path)}`).join(", ")}`);
  for (const path of added) keyPaths.add(path);
  return added;
}

/**
 * The INSERT of a document (`@id`, and `@doc` its JSON text) with its key columns, computed
 * from the text by SQLite as the expression indexes were.
 */
export function insertSql(table: string, keyPaths: ReadonlySet<string>): string {
  const paths = [...keyPaths];
  return `INSERT INTO ${sqlName(table)} (_id, doc${paths.map((p) => `, ${keyColumn(p)}`).join("")}) VALUES (@id, @doc${paths.map((p) => `, ${jsonExtract("@doc", p)}`).join("")})`;
}

/** The UPDATE of a row's document (`@doc`) and of the key columns `changed` with it, by `@rowid`. */
export function updateSql(table: string, changed: readonly string[]): string {
  return `UPDATE ${sqlName(table)} SET doc = @doc${changed.map((p) => `, ${keyColumn(p)} = ${jsonExtract("@doc", p)}`).join("")} WHERE rowid = @rowid`;
}

/** The value a key column compares by: scalars as they are, objects and arrays as their JSON text. */
export function keyValue(value: unknown): unknown {
  return value !== null && typeof value === "object" ? JSON.stringify(value) : value;
}

/** The CREATE INDEX of `index` on `table`, over its key columns. */
export function createIndexSql(table: string, index: StoredIndex, field: FieldSql): string {
  const columns = Object.entries(index.keys).map(([path, dir]) => `${field(path)}${dir === -1 ? " DESC" : ""}`);
  const where = index.partialFilterExpression ? ` WHERE ${toSqlPredicate(index.partialFilterExpression, field)}` : "";
  return `CREATE ${index.unique ? "UNIQUE " : ""}INDEX ${sqlName(sqlIndexName(table, index.name))} ON ${sqlName(table)} (${columns.join(", ")})${where}`;
}

/**
 * Moves a store's indexes built on `json_extract` expressions (a data folder written before key
 * columns) to key columns: for each, its columns added and filled, then the index dropped and
 * built again on them, in one transaction at open. Answers how many indexes moved.
 */
export function moveIndexesToKeyColumns(db: Database.Database): number {
  // Every open asks; once moved (or in a new folder) this one read of the schema is all it costs.
  const onExpressions = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql LIKE '%json_extract(%'").all() as { name: string }[];
  if (onExpressions.length === 0) return 0;
  const toMove = new Set(onExpressions.map((r) => r.name));
  const stored = db.prepare("SELECT collection, spec FROM _indexes").all() as { collection: string; spec: string }[];
  const byTable = new Map<string, StoredIndex[]>();
  for (const row of stored) {
    const index = JSON.parse(row.spec) as StoredIndex;
    const table = `c_${row.collection}`;
    if (toMove.has(sqlIndexName(table, index.name))) byTable.set(table, [...(byTable.get(table) ?? []), index]);
  }
  db.transaction(() => {
    for (const [table, indexes] of byTable) {
      const keyPaths = keyPathsOf(db, table);
      addKeyColumns(db, table, keyPaths, indexes.flatMap(indexedPaths));
      for (const index of indexes) {
        db.exec(`DROP INDEX ${sqlName(sqlIndexName(table, index.name))}`);
        db.exec(createIndexSql(table, index, fieldSqlOf(keyPaths)));
      }
    }
  })();
  return [...byTable.values()].reduce((sum, indexes) => sum + indexes.length, 0);
}
