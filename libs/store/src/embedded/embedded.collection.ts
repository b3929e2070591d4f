import {
  DuplicateKeyError,
  type Collection,
  type ConditionalUpdate,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type SortSpec,
  type Update,
} from "../store.port.ts";
import { assertDefinedFilter } from "../shared/filter-guard.ts";
import { randomId } from "../shared/random-id.ts";
import { settleAll } from "../shared/settle-all.ts";
import { settled } from "../shared/call-as-promise.ts";
import { matches } from "./document-match.ts";
import { sameIndex, sameKeys, toStoredIndex, type StoredIndex } from "./index-spec.ts";
import { throughArray } from "./multikey-paths.ts";
import { addKeyColumns, createIndexSql, indexedPaths, insertSql, keyValue, updateSql } from "./key-columns.ts";
import { sqlIndexName, sqlName } from "./sql-expression.ts";
import { toSqlFilter, toSqlOrder, toSqlPredicate } from "./sql-filter.ts";
import type { CollectionState, SqliteHost } from "./sqlite-host.ts";
import { applyUpdate } from "./update-operators.ts";
import { sameIndexes, valueAt, writeChecks, type NullKeyed, type WriteChecks } from "./write-checks.ts";
import { seedFromFilter } from "./upsert-seed.ts";

type Doc = Record<string, unknown>;
const ONE: FindOptions = { limit: 1 };
interface Row {
  rowid: number;
  doc: string;
}

/**
 * One collection of the embedded store: a SQLite table of JSON documents (`_id`, `doc`),
 * with each declared index built by SQLite on the key columns of the fields it reads
 * (key-columns.ts), so lookups, sorts and uniqueness (compound and partial) are the engine's.
 * A query is narrowed in SQL through those indexes and confirmed row by row with MongoDB's
 * rules (document-match.ts).
 */
export class EmbeddedCollection<T extends { _id: string }> implements Collection<T> {
  private byIdSql: { table: string; text: string } | undefined;
  /** The table's key columns, the INSERT and the UPDATEs for them, as of `keys` columns of `keyPaths` (columns are only ever added). */
  private writeSql: { keyPaths: Set<string>; keys: number; table: string; paths: string[]; insert: string; updates: Map<string, string> } | undefined;

  constructor(
    readonly name: string,
    private readonly host: SqliteHost,
  ) {}

  async insertOne(doc: T): Promise<void> {
    if (typeof doc._id !== "string") throw new Error(`insert into ${this.name}: _id must be a string`);
    // Serialised now, so the caller may change its object after this call; JSON drops
    // `undefined` properties as MongoDB's driver does (`ignoreUndefined`). The null-key and
    // array-path checks run inside the write, on what they read of the object now; only if an
    // index came or went in between are they worked out again, from the text.
    const id = doc._id;
    const text = JSON.stringify(doc);
    const loaded = this.host.loadedState(this.name);
    // A copy of the index list: createIndex adds to the same array.
    const early = loaded ? { indexes: loaded.indexes.slice(), checks: writeChecks(loaded.indexes, doc) } : undefined;
    await this.host.write(
      this.name,
      () => {
        const state = this.state();
        const checks = early && sameIndexes(early.indexes, state.indexes) ? early.checks : writeChecks(state.indexes, JSON.parse(text) as Doc);
        this.insertChecked(state, id, text, checks);
      },
      "last-statement",
    );
  }

  // Reads are synchronous (better-sqlite3): findOne and find hand back one settled promise
  // rather than run as async functions, whose frames (and an await between them) every Get paid.
  findOne(filter: Filter, options: { sort?: SortSpec } = {}): Promise<T | null> {
    return settled(() => this.read(filter, options.sort === undefined ? ONE : { sort: options.sort, limit: 1 })[0] ?? null);
  }

  find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return settled(() => this.read(filter, options));
  }

  private read(filter: Filter, options: FindOptions): T[] {
    assertDefinedFilter(filter, this.name);
    if (typeof filter._id === "string" && !options.skip) return this.host.read(this.name, () => this.byId(filter._id as string, filter));
    return this.host.read(this.name, () => this.select(this.state(), filter, options).map((r) => JSON.parse(r.doc) as T));
  }

  async countDocuments(filter: Filter): Promise<number> {
    assertDefinedFilter(filter, this.name);
    return this.host.read(this.name, () => {
      const state = this.state();
      const sql = toSqlFilter(filter, (path) => throughArray(state.arrays, path), state.field);
      if (sql.exact) {
        return (this.host.prepare(`SELECT count(*) AS n FROM ${sqlName(state.table)} WHERE ${sql.where}`).get(...sql.params) as { n: number }).n;
      }
      return this.select(state, filter, {}).length;
    });
  }

  async estimatedCount(): Promise<number> {
    return this.host.read(this.name, () => {
      const { table } = this.state();
      return (this.host.prepare(`SELECT count(*) AS n FROM ${sqlName(table)}`).get() as { n: number }).n;
    });
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    assertDefinedFilter(filter, this.name);
    return this.host.write(this.name, () => {
      const state = this.state();
      const found = this.first(state, filter, options.sort);
      if (found) {
        const current = found.parsed ?? (JSON.parse(found.doc) as Doc);
        const sql = this.sqlFor(state);
        const { paths } = sql;
        // Taken before applyUpdate, which changes the document in place.
        const keysBefore = paths.map((path) => keyValue(valueAt(current, path)));
        const next = applyUpdate(current, update, false);
        this.check(state, next._id as string, writeChecks(state.indexes, next));
        const before = options.returnDocument === "before" ? (JSON.parse(found.doc) as T) : undefined;
        // Only the key columns whose values changed are set, so SQLite touches only their indexes.
        const changed = paths.filter((path, i) => keyValue(valueAt(next, path)) !== keysBefore[i]);
        this.host.prepare(updateText(sql, changed)).run({ doc: JSON.stringify(next), rowid: found.rowid });
        return before ?? (next as T);
      }
      if (!options.upsert) return null;
      const created = applyUpdate(seedFromFilter(filter), update, true);
      created._id ??= randomId();
      if (typeof created._id !== "string") throw new Error(`upsert into ${this.name}: _id must be a string`);
      this.insertChecked(state, created._id, JSON.stringify(created), writeChecks(state.indexes, created));
      return options.returnDocument === "before" ? null : (created as T);
    }, "last-statement");
  }

  async updateEach(writes: readonly ConditionalUpdate[]): Promise<number> {
    // Side by side, so they share a group commit, as the same writes made by separate callers would.
    const found = await settleAll(writes.map(({ filter, update }) => this.findOneAndUpdate(filter, update)));
    return found.filter((doc) => doc !== null).length;
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    assertDefinedFilter(filter, this.name);
    return this.host.write(this.name, () => {
      const state = this.state();
      const found = this.first(state, filter, undefined);
      if (!found) return false;
      return this.host.prepare(`DELETE FROM ${sqlName(state.table)} WHERE rowid = ?`).run(found.rowid).changes === 1;
    }, "last-statement");
  }

  async deleteOldest(field: string, before: string | number, options: { limit: number }): Promise<number> {
    return this.host.write(this.name, () => {
      const state = this.state();
      const remove = this.host.prepare(`DELETE FROM ${sqlName(state.table)} WHERE rowid = ?`);
      let removed = 0;
      for (const row of this.select(state, { [field]: { $lt: before } }, { sort: { [field]: 1 }, limit: options.limit })) removed += remove.run(row.rowid).changes;
      return removed;
    });
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    const wanted = toStoredIndex(spec);
    await this.host.write(this.name, () => {
      const state = this.state();
      const existing = state.indexes.find((i) => i.name === wanted.name || sameKeys(i, wanted));
      if (existing) {
        if (sameIndex(existing, wanted)) return;
        throw new Error(`index ${wanted.name} on ${this.name} conflicts with existing index ${existing.name}`);
      }
      state.indexes.push(wanted); // before building, so a unique failure names this index
      let added: string[] = [];
      try {
        added = addKeyColumns(this.host.db(), state.table, state.keyPaths, indexedPaths(wanted));
        this.host.db().exec(createIndexSql(state.table, wanted, state.field));
        if (wanted.unique && this.nullKeyHolders(state, wanted, undefined).length > 1) throw new DuplicateKeyError(this.name, wanted.name);
        this.host.prepare("INSERT INTO _indexes (collection, name, spec) VALUES (?, ?, ?)").run(this.name, wanted.name, JSON.stringify(wanted));
      } catch (err) {
        // The savepoint rolls the SQL back (the columns added too); undo the memory as well.
        state.indexes.pop();
        for (const path of added) state.keyPaths.delete(path);
        throw err;
      }
    });
  }

  async dropIndex(name: string): Promise<void> {
    await this.host.write(this.name, () => {
      const state = this.state();
      if (!state.indexes.some((i) => i.name === name)) return;
      this.host.db().exec(`DROP INDEX IF EXISTS ${sqlName(sqlIndexName(state.table, name))}`);
      this.host.prepare("DELETE FROM _indexes WHERE collection = ? AND name = ?").run(this.name, name);
      state.indexes = state.indexes.filter((i) => i.name !== name);
    });
  }

  /** SQLite's plan for a find (EXPLAIN QUERY PLAN, one line per step): for tests and diagnosis. */
  queryPlan(filter: Filter, options: FindOptions = {}): string {
    const { text, params } = this.selectSql(this.state(), filter, options);
    const rows = this.host.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[];
    return rows.map((r) => r.detail).join("\n");
  }

  private state(): CollectionState {
    return this.host.state(this.name);
  }

  /**
   * A filter naming one `_id` (a Get's `{ _id, merchantId }`): the row is read by its unique
   * key alone and the filter's other conditions are checked on the parsed document, which the
   * caller needs parsed anyway; SQL would read a field without a key column through a
   * `json_extract` of the document. At most one row, so sort and limit change nothing.
   */
  private byId(id: string, filter: Filter): T[] {
    const found = this.rowById(this.state(), id, filter);
    return found ? [found.parsed as T] : [];
  }

  /** The row of `id` with its document parsed, if that document matches the rest of `filter`. */
  private rowById(state: CollectionState, id: string, filter: Filter): (Row & { parsed: Doc }) | undefined {
    // The statement's text made once per table, not quoted and built again for every read.
    if (this.byIdSql?.table !== state.table) this.byIdSql = { table: state.table, text: `SELECT rowid, doc FROM ${sqlName(state.table)} WHERE _id = ?` };
    const row = this.host.prepare(this.byIdSql.text).get(id) as Row | undefined;
    if (!row) return undefined;
    const parsed = JSON.parse(row.doc) as Doc;
    return matches(parsed, filter) ? { rowid: row.rowid, doc: row.doc, parsed } : undefined;
  }

  /**
   * The first row a write's filter matches. A filter naming one `_id` (most writes: a
   * conditional write on a known document) reads the row by its key and checks the other
   * conditions on the parsed document, which the write needs parsed anyway (see byId).
   */
  private first(state: CollectionState, filter: Filter, sort: SortSpec | undefined): (Row & { parsed?: Doc }) | undefined {
    if (typeof filter._id !== "string") return this.select(state, filter, { sort, limit: 1 })[0];
    return this.rowById(state, filter._id, filter);
  }

  /**
   * The rows matching `filter`, in `options.sort` order. When the SQL is exact, skip and
   * limit run in SQLite; otherwise rows are confirmed in JavaScript as they stream past.
   */
  private select(state: CollectionState, filter: Filter, options: FindOptions): Row[] {
    const { text, params, exact } = this.selectSql(state, filter, options);
    if (exact) return this.host.prepare(text).all(...params) as Row[];
    const rows: Row[] = [];
    let skip = options.skip ?? 0;
    for (const row of this.host.prepare(text).iterate(...params) as IterableIterator<Row>) {
      if (!matches(JSON.parse(row.doc) as Doc, filter)) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      rows.push(row);
      if (options.limit && rows.length >= options.limit) break; // leaving the loop closes the cursor
    }
    return rows;
  }

  /** The SELECT for a find; skip and limit go into the SQL only when it is exact. */
  private selectSql(state: CollectionState, filter: Filter, options: FindOptions): { text: string; params: (string | number)[]; exact: boolean } {
    const sql = toSqlFilter(filter, (path) => throughArray(state.arrays, path), state.field);
    const order = toSqlOrder(options.sort, state.field);
    let text = `SELECT rowid, doc FROM ${sqlName(state.table)} WHERE ${sql.where}${order ? ` ORDER BY ${order}` : ""}`;
    if (sql.exact) {
      if (options.limit !== undefined && options.limit > 0) text += ` LIMIT ${Math.floor(options.limit)}`;
      if (options.skip) text += `${options.limit ? "" : " LIMIT -1"} OFFSET ${Math.floor(options.skip)}`;
    }
    return { text, params: sql.params, exact: sql.exact };
  }

  /**
   * The INSERT is the write's last statement (a `"last-statement"` write, see sqlite-host.ts):
   * the array paths are recorded before it, and stay recorded if it fails, which only makes
   * queries on those paths checked in JavaScript, as they already are in this process.
   */
  private insertChecked(state: CollectionState, id: string, text: string, checks: WriteChecks): void {
    this.check(state, id, checks);
    this.host.prepare(this.sqlFor(state).insert).run({ id, doc: text });
  }

  /** The table's key columns now, with their INSERT and the UPDATEs made so far (by the columns they set). */
  private sqlFor(state: CollectionState): NonNullable<EmbeddedCollection<T>["writeSql"]> {
    let sql = this.writeSql;
    if (sql?.keyPaths !== state.keyPaths || sql.keys !== state.keyPaths.size) {
      sql = { keyPaths: state.keyPaths, keys: state.keyPaths.size, table: state.table, paths: [...state.keyPaths], insert: insertSql(state.table, state.keyPaths), updates: new Map() };
      this.writeSql = sql;
    }
    return sql;
  }


  /**
   * The checks of a document about to be written as `id`, inside its write transaction. SQLite
   * lets NULLs differ in a unique index, so for each unique index in which the document's key has
   * a null, another holder of the same key is looked for (an indexed `IS NULL` lookup). Then its
   * new array paths are recorded.
   */
  private check(state: CollectionState, id: string, checks: WriteChecks): void {
    for (const { index, keyOf } of checks.nullKeyed) {
      if (this.nullKeyHolders(state, index, keyOf).some((holder) => holder !== id)) throw new DuplicateKeyError(this.name, index.name);
    }
    this.rememberArrays(state, checks.arrays);
  }

  /** `_id`s of documents whose keys for `index` are `keyOf`'s (all null when none is given). */
  private nullKeyHolders(state: CollectionState, index: StoredIndex, keyOf: NullKeyed["keyOf"] | undefined): string[] {
    const conditions: string[] = [];
    const params: (string | number)[] = [];
    for (const field of Object.keys(index.keys)) {
      const value = keyOf ? keyOf(field) : null;
      if (value === null) conditions.push(`${state.field(field)} IS NULL`);
      else if (typeof value === "string" || typeof value === "number") {
        conditions.push(`${state.field(field)} = ?`);
        params.push(value);
      } else return []; // an object or array key: SQLite's own unique check covers it
    }
    if (index.partialFilterExpression) conditions.push(toSqlPredicate(index.partialFilterExpression, state.field));
    const sql = `SELECT _id FROM ${sqlName(state.table)} WHERE ${conditions.join(" AND ")} LIMIT 2`;
    return (this.host.prepare(sql).all(...params) as { _id: string }[]).map((r) => r._id);
  }

  /** Records new array paths (see multikey-paths.ts) in the same transaction as the write. */
  private rememberArrays(state: CollectionState, paths: readonly string[]): void {
    for (const path of paths) {
      if (state.arrays.has(path)) continue;
      this.host.prepare("INSERT OR IGNORE INTO _array_paths (collection, path) VALUES (?, ?)").run(this.name, path);
      state.arrays.add(path);
    }
  }
}

/** The UPDATE of a row's document and of the key columns `changed`, made once per set of columns. */
function updateText(sql: { table: string; updates: Map<string, string> }, changed: readonly string[]): string {
  const key = changed.join("\0");
  let text = sql.updates.get(key);
  if (text === undefined) sql.updates.set(key, (text = updateSql(sql.table, changed)));
  return text;
}
