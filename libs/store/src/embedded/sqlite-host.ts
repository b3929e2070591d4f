import { closeSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Logger } from "@payrail/runtime";
import { DuplicateKeyError, StoreUnavailableError } from "../store.port.ts";
import { fieldSqlOf, keyPathsOf, moveIndexesToKeyColumns } from "./key-columns.ts";
import { sqlIndexName, sqlName, type FieldSql } from "./sql-expression.ts";
import type { StoredIndex } from "./index-spec.ts";
import { WalCheckpointer, type CheckpointSettings, type WriteGate } from "./wal-checkpointer.ts";

type Db = Database.Database;
type Statement = Database.Statement;

/** What the store knows of one collection: its table, its indexes, its array paths, its key columns. */
export interface CollectionState {
  table: string;
  indexes: StoredIndex[];
  arrays: Set<string>;
  /** The fields that have a key column (key-columns.ts): those its indexes read. */
  keyPaths: Set<string>;
  /** How its queries and indexes name a field in SQL: its key column, else the document's expression. */
  field: FieldSql;
}

/**
 * How a write changes the database, which decides whether it needs a savepoint of its own.
 * - `"last-statement"`: nothing before its last statement needs undoing if it fails (reads,
 *   checks, and hints that stay true either way), and that statement is undone by SQLite itself
 *   when it fails (a duplicate key). It runs without a savepoint.
 * - `"statements"`: anything else (several changes, a schema change); it runs in its own
 *   savepoint, so a failure part-way undoes all of it.
 */
export type WriteShape = "last-statement" | "statements";

interface PendingWrite {
  collection: string;
  work: () => unknown;
  shape: WriteShape;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** The file the embedded store keeps everything in, under DATA_DIR. */
export const DATABASE_FILE = "payrail.sqlite";

/** How many distinct prepared statements are kept (filters of varying shape make new ones). */
const STATEMENT_CACHE = 500;

/**
 * The one SQLite connection of an embedded store and the state of its collections. All calls
 * are synchronous (better-sqlite3): a statement or transaction runs to completion before any
 * other JavaScript runs, which is what makes each conditional write atomic in this process;
 * `BEGIN IMMEDIATE` keeps it atomic against another process too.
 *
 * Durability: WAL with synchronous=NORMAL. A commit is in the WAL (the OS's page cache) before
 * the call returns, so a killed process (SIGKILL) loses nothing it acknowledged; only a power
 * loss may lose the last transactions, and never corrupts the file. Checkpoints (copying the WAL
 * into the database file, with its fsyncs) run in a worker thread, off the event loop
 * (wal-checkpointer.ts).
 */
export class SqliteHost implements WriteGate {
  private connection: Db | undefined;
  private checkpointer: WalCheckpointer | undefined;
  private readonly statements = new Map<string, Statement>();
  private readonly states = new Map<string, CollectionState>();
  private readonly pending: PendingWrite[] = [];
  private closed = false;
  private writesHeld = false;
  /** A read transaction is open for this turn of the event loop (see openRead). */
  private readOpen = false;

  constructor(
    private readonly dir: string | undefined,
    readonly log: Logger,
    private readonly onOpen: (db: Db) => void = () => undefined,
    private readonly checkpoints: Partial<CheckpointSettings> = {},
  ) {}

  /** The open connection, opening it on first use; StoreUnavailableError when it cannot be. */
  db(): Db {
    if (this.closed) throw new StoreUnavailableError("embedded store is closed");
    if (this.connection) return this.connection;
    try {
      const file = this.dir ? join(this.dir, DATABASE_FILE) : ":memory:";
      if (this.dir) {
        mkdirSync(this.dir, { recursive: true });
        // Owner-only from the first byte; SQLite gives its -wal and -shm files the same mode.
        closeSync(openSync(file, "a", 0o600));
      }
      const db = new Database(file);
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      db.pragma("busy_timeout = 5000");
      // A bounded page cache (8 MiB): the data stays on disk, not in the process. A random Get
      // past ~10^5 checkouts misses a cache of any affordable size and reads from the OS's page
      // cache, so 16 MiB bought no measurable speed for its ~12 MB more RSS (docs/decisions/0016-embedded-store.md).
      // mmap stays off: mapped pages would count in the process's RSS.
      db.pragma("cache_size = -8192");
      // The savepoints' journals (see flush) in memory rather than a temporary file: an indexed
      // insert inside a savepoint cost 29–47 µs with the file, 17–26 with memory (docs/decisions/0016-embedded-store.md).
      db.pragma("temp_store = MEMORY");
      db.exec(`CREATE TABLE IF NOT EXISTS _indexes (collection TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL, PRIMARY KEY (collection, name));
               CREATE TABLE IF NOT EXISTS _array_paths (collection TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (collection, path));
               CREATE TABLE IF NOT EXISTS _meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);
      const moved = moveIndexesToKeyColumns(db);
      if (moved > 0) this.log.info({ indexes: moved }, "embedded store: indexes moved to key columns");
      this.connection = db;
      this.onOpen(db);
      if (this.dir) this.checkpointer = new WalCheckpointer(file, db, this, this.log, this.checkpoints);
      return db;
    } catch (err) {
      this.connection?.close();
      this.connection = undefined;
      if (err instanceof StoreUnavailableError) throw err;
      throw new StoreUnavailableError(`embedded store cannot open ${this.dir ?? "memory"}: ${(err as Error).message}`, { cause: err });
    }
  }

  /** A prepared statement, cached by its text. */
  prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= STATEMENT_CACHE) this.statements.clear();
      statement = this.db().prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Runs `work` as one atomic write and resolves once it is committed. Writes asked for in the
   * same turn of the event loop share one transaction (group commit), and all are acknowledged
   * after the single COMMIT; one that fails (a duplicate key) undoes only itself (see WriteShape).
   * One commit per batch instead of one per write is what lets the store keep up with many
   * concurrent requests: a commit writes every touched page to the WAL, and costs far more than
   * the statements themselves.
   */
  write<R>(collection: string, work: () => R, shape: WriteShape = "statements"): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ collection, work, shape, resolve: resolve as (value: unknown) => void, reject });
      if (this.pending.length === 1 && !this.writesHeld) setImmediate(() => this.flush());
    });
  }

  /** While the checkpoint worker copies the WAL's last frames, writes queue (wal-checkpointer.ts). */
  holdWrites(): void {
    this.writesHeld = true;
  }

  releaseWrites(): void {
    this.writesHeld = false;
    if (this.pending.length > 0) setImmediate(() => this.flush());
  }

  /** Commits every queued write in one transaction (see write). */
  private flush(): void {
    if (this.writesHeld) return; // releaseWrites flushes
    const batch = this.pending.splice(0, this.pending.length);
    if (batch.length === 0) return;
    this.closeRead();
    const outcomes: Outcome[] = [];
    try {
      this.prepare("BEGIN IMMEDIATE").run();
      for (const op of batch) outcomes.push(op.shape === "last-statement" ? this.runStatement(op) : this.runInSavepoint(op));
      this.prepare("COMMIT").run();
    } catch (err) {
      // BEGIN or COMMIT failed (busy, disk full, closed), or a write took the transaction with it
      // (runStatement): nothing of the batch was written.
      if (this.connection?.inTransaction) this.connection.prepare("ROLLBACK").run();
      for (const op of batch) op.reject(toStoreError(err, op.collection, undefined));
      return;
    }
    this.checkpointer?.committed();
    batch.forEach((op, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) op.resolve(outcome.value);
      else op.reject(outcome.error);
    });
  }

  /**
   * A `"last-statement"` write, without a savepoint: a savepoint makes SQLite copy every page the
   * write touches into its journal first, which cost more than an indexed insert itself.
   */
  private runStatement(op: PendingWrite): Outcome {
    try {
      return { ok: true, value: op.work() };
    } catch (err) {
      // Some failures (a full disk, an I/O error) make SQLite roll back the whole transaction,
      // not only the statement: then the batch's earlier writes are gone too, and a later one
      // would commit on its own. The batch fails as one, like a failed COMMIT.
      if (!this.connection?.inTransaction) throw err;
      return this.failed(op, err);
    }
  }

  /** Any other write, in its own savepoint, so that a failure part-way undoes all of it. */
  private runInSavepoint(op: PendingWrite): Outcome {
    this.prepare("SAVEPOINT write").run();
    try {
      const value = op.work();
      this.prepare("RELEASE write").run();
      return { ok: true, value };
    } catch (err) {
      this.prepare("ROLLBACK TO write").run();
      this.prepare("RELEASE write").run();
      return this.failed(op, err);
    }
  }

  /** Runs a read inside this turn's read transaction (see openRead), mapping SQLite errors. */
  read<R>(collection: string, work: () => R): R {
    try {
      this.openRead();
      return work();
    } catch (err) {
      throw toStoreError(err, collection, this.states.get(collection));
    }
  }

  /**
   * The reads of one turn of the event loop share one read transaction, ended at the turn's
   * check phase (setImmediate) or by the next group commit, whichever comes first. In WAL mode a
   * read transaction of its own takes two file locks and a stat of the file (~6 µs here), more
   * than three times a read by key. Commits happen only in flush, which ends the read first, so
   * the shared snapshot is always the latest commit: it sees every acknowledged write, and never
   * holds the checkpoint worker back.
   */
  private openRead(): void {
    if (this.readOpen) return;
    const db = this.db();
    if (db.inTransaction) return; // a read made inside a write is part of it
    this.prepare("BEGIN").run();
    this.readOpen = true;
    setImmediate(this.closeRead);
  }

  private readonly closeRead = (): void => {
    if (!this.readOpen) return;
    this.readOpen = false;
    try {
      // COMMIT, not ROLLBACK: the first use of a collection creates its table during a read.
      if (this.connection?.inTransaction) this.prepare("COMMIT").run();
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, "embedded store: ending a read transaction failed");
      try {
        if (this.connection?.inTransaction) this.connection.prepare("ROLLBACK").run();
      } catch {
        // The connection is gone with its transaction: nothing is left to end.
      }
    }
  };

  /** The collection's state if a write or read has loaded it already: no SQL, so callable outside a write. */
  loadedState(name: string): CollectionState | undefined {
    return this.states.get(name);
  }

  /** The collection's table (created on first use) with its indexes and array paths. */
  state(name: string): CollectionState {
    let state = this.states.get(name);
    if (state) return state;
    const db = this.db();
    const table = `c_${name}`;
    db.exec(`CREATE TABLE IF NOT EXISTS ${sqlName(table)} (_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL)`);
    const indexes = (db.prepare("SELECT spec FROM _indexes WHERE collection = ?").all(name) as { spec: string }[]).map(
      (row) => JSON.parse(row.spec) as StoredIndex,
    );
    const arrays = new Set((db.prepare("SELECT path FROM _array_paths WHERE collection = ?").all(name) as { path: string }[]).map((r) => r.path));
    const keyPaths = keyPathsOf(db, table);
    state = { table, indexes, arrays, keyPaths, field: fieldSqlOf(keyPaths) };
    this.states.set(name, state);
    return state;
  }

  /** Forgets every collection (after a drop), so tables are made again on next use. */
  forget(): void {
    this.states.clear();
    this.statements.clear();
  }

  /** Commits what is queued, then ends the checkpoint worker before the connection, whose close then checkpoints last. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.writesHeld = false;
    this.closeRead();
    this.flush(); // writes already asked for are committed, not dropped
    this.closed = true;
    await this.checkpointer?.stop();
    this.statements.clear();
    this.connection?.close();
    this.connection = undefined;
  }

  /** A write that failed alone: the port's error for it, the rest of the batch going on. */
  private failed(op: PendingWrite, err: unknown): Outcome {
    return { ok: false, error: toStoreError(err, op.collection, this.states.get(op.collection)) };
  }
}

/** SQLite's error codes that mean the database, not the request, is the problem. */
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|CORRUPT|NOTADB|PROTOCOL)/;

function toStoreError(err: unknown, collection: string, state: CollectionState | undefined): unknown {
  if (!(err instanceof Database.SqliteError)) {
    if (err instanceof TypeError && /database connection is not open/.test(err.message)) {
      return new StoreUnavailableError("embedded store is closed", { cause: err });
    }
    return err;
  }
  if (err.code === "SQLITE_CONSTRAINT_UNIQUE" || err.code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    return new DuplicateKeyError(collection, violatedIndex(err.message, state));
  }
  if (UNAVAILABLE.test(err.code)) return new StoreUnavailableError(`embedded store: ${err.message}`, { cause: err });
  return err;
}

/**
 * The port's index name from SQLite's message: `UNIQUE constraint failed: c_x.k:a, c_x.k:b` (an
 * index on key columns, found by its fields), `...: index 'c_x$email'` (an expression index),
 * or `...: c_x._id`.
 */
function violatedIndex(message: string, state: CollectionState | undefined): string {
  if (!state) return "_id_";
  const named = /index '([^']+)'/.exec(message)?.[1];
  const columns = /constraint failed: (.+)$/.exec(message)?.[1]?.split(", ").map((column) => column.slice(column.indexOf(".") + 1));
  const fields = columns?.map((column) => (column.startsWith("k:") ? column.slice(2) : column)).join("\0");
  const index = named
    ? state.indexes.find((i) => sqlIndexName(state.table, i.name) === named)
    : state.indexes.find((i) => i.unique && Object.keys(i.keys).join("\0") === fields);
  return index?.name ?? "_id_";
}
