/**
 * The document-store interface every service uses. It is deliberately small: what the
 * services need, implemented identically by the MongoDB adapter and the embedded adapter,
 * and pinned down by one contract test suite that runs against both.
 *
 * Documents are plain JSON-compatible objects with a string `_id` chosen by the caller.
 * Dates are stored as ISO strings by the services, so both adapters compare them the same way.
 */

/** Equality on a (dotted) field, or one of the listed operators. */
export type FieldCondition =
  | string
  | number
  | boolean
  | null
  | {
      $eq?: unknown;
      $ne?: unknown;
      $in?: unknown[];
      $nin?: unknown[];
      $gt?: string | number;
      $gte?: string | number;
      $lt?: string | number;
      $lte?: string | number;
      $exists?: boolean;
    };

/**
 * A filter: field (dotted paths allowed) to condition; all must hold. `$or` of filters.
 * `null` matches a null or missing field (MongoDB's rule). An `undefined` condition is rejected
 * with an error rather than ignored, because ignoring it would match every document.
 */
export type Filter = { [field: string]: FieldCondition | Filter[] | undefined; $or?: Filter[] };

/** Update operators supported by findOneAndUpdate. Dotted paths allowed in $set/$inc/$push. */
export interface Update {
  $set?: Record<string, unknown>;
  $inc?: Record<string, number>;
  $push?: Record<string, unknown>;
  /** Applied only when the upsert inserts. */
  $setOnInsert?: Record<string, unknown>;
  $unset?: Record<string, true | 1 | "">;
}

export type SortSpec = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: SortSpec;
  limit?: number;
  skip?: number;
}

export interface FindOneAndUpdateOptions {
  upsert?: boolean;
  /** Which version to return; default "after". */
  returnDocument?: "before" | "after";
  sort?: SortSpec;
}

/** One write of `updateEach`: the filter that must still hold, and the change. */
export interface ConditionalUpdate {
  filter: Filter;
  update: Update;
}

export interface IndexSpec {
  /** Field (dotted) to 1/-1. Compound indexes allowed. */
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  /** Only documents matching this filter are indexed (MongoDB's partial index; equality and $exists/$in only). */
  partialFilterExpression?: Filter;
  name?: string;
}

export interface Collection<T extends { _id: string }> {
  readonly name: string;
  /** Inserts; throws DuplicateKeyError when a unique index (or _id) already holds the key. */
  insertOne(doc: T): Promise<void>;
  findOne(filter: Filter, options?: { sort?: SortSpec }): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  countDocuments(filter: Filter): Promise<number>;
  /**
   * How many documents the collection holds, from the database's own bookkeeping rather than
   * a query (MongoDB's estimatedDocumentCount): for statistics, never for decisions.
   */
  estimatedCount(): Promise<number>;
  /**
   * The single conditional write: atomically finds one document matching `filter`, applies
   * `update`, and returns it (after, by default), or null when nothing matched and no upsert.
   * Throws DuplicateKeyError when the write would break a unique index.
   */
  findOneAndUpdate(filter: Filter, update: Update, options?: FindOneAndUpdateOptions): Promise<T | null>;
  /**
   * Several conditional writes sent together: each updates at most one document matching its
   * filter, atomically on its own (never all or none together), and the answer is how many
   * matched. MongoDB takes them in one round trip (an unordered bulk write); the embedded store
   * and FerretDB (whose updates need the adapter's locks) make them one by one; a failure is
   * reported once every write of the call has ended. No upsert and no
   * documents back: for a caller that only needs to know whether every write held, and redoes
   * the writes one by one when not (the outbox relay's marks).
   */
  updateEach(writes: readonly ConditionalUpdate[]): Promise<number>;
  /** Deletes at most one matching document; returns whether one was deleted. */
  deleteOne(filter: Filter): Promise<boolean>;
  /**
   * Retention: deletes the oldest documents whose `field` (a number or ISO time, indexed) is below
   * `before`: `limit` of them, plus any tied with the last of those; answers how many. One
   * bounded batch per call, for sweeps that call again until a batch comes back short. On
   * FerretDB the range is not re-checked as each document goes, so use it only on documents no
   * writer changes any more (expired records), never as a conditional write.
   */
  deleteOldest(field: string, before: string | number, options: { limit: number }): Promise<number>;
  /** Idempotent: creating an index that exists is a no-op. */
  createIndex(spec: IndexSpec): Promise<void>;
  /**
   * Drops the named index; idempotent (an index that does not exist is a no-op). For an index a
   * wider one replaces: create the wider one first, so the queries stay served throughout.
   */
  dropIndex(name: string): Promise<void>;
}

export interface Store {
  /** Names: letters, digits, `_` and `-`, starting with a letter (they become file names). */
  collection<T extends { _id: string }>(name: string): Collection<T>;
  /**
   * Next value of a named sequence (1, 2, 3, ...), atomic across concurrent callers and,
   * for MongoDB, across processes. Kept in the store's own `counters` collection.
   */
  nextSequence(name: string): Promise<number>;
  /**
   * Reserves the next `count` values of the same named sequence in one atomic write and
   * returns the last of them: the caller owns `last - count + 1 .. last`. See SequenceBlocks.
   */
  reserveSequence(name: string, count: number): Promise<number>;
  /** Resolves when the database answers; rejects (StoreUnavailableError) otherwise. */
  ping(): Promise<void>;
  /**
   * Deletes every document and index definition of this store (the MongoDB database, or all
   * embedded collections); the store stays usable. For test clean-up: suites that run
   * services cannot import `mongodb` to drop their throwaway database themselves.
   */
  drop(): Promise<void>;
  close(): Promise<void>;
}

/** A unique index (or _id) already holds the key. */
export class DuplicateKeyError extends Error {
  override readonly name = "DuplicateKeyError";
  constructor(
    readonly collection: string,
    readonly index: string,
  ) {
    super(`duplicate key in ${collection} (${index})`);
  }
}

/** The database cannot be reached (maps to 503 at the gateway). */
export class StoreUnavailableError extends Error {
  override readonly name = "StoreUnavailableError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The database cannot do what was asked, and retrying will not help: for example a partial
 * index on FerretDB v1, which does not implement `partialFilterExpression`. Added to the port
 * so callers (and the contract tests) can tell a missing server feature from a bug or an
 * outage, instead of parsing driver messages.
 */
export class StoreUnsupportedError extends Error {
  override readonly name = "StoreUnsupportedError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
