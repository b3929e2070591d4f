import { MongoNetworkError, MongoServerError, MongoServerSelectionError } from "mongodb";
import { DuplicateKeyError, StoreUnavailableError, StoreUnsupportedError } from "../store.port.ts";

/** Driver errors (by name, some classes are not exported) meaning "the database is not there". */
const UNAVAILABLE_NAMES = new Set([
  "MongoServerSelectionError",
  "MongoTopologyClosedError",
  "MongoNotConnectedError",
  "MongoClientClosedError",
  "MongoServerClosedError",
  "MongoOperationTimeoutError",
  "MongoPoolClosedError",
  "MongoWaitQueueTimeoutError",
]);

/** Server codes for a node that is stepping down, shutting down or unreachable. */
const UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436]);

/**
 * FerretDB v1 (SQLite) reports a unique violation found while updating, or while building a
 * unique index, as InternalError (code 1) quoting SQLite, e.g.
 * `UNIQUE constraint failed: index 'x_fd0c5087_email_u'` (table `<collection>_<hash>`, then
 * the index name).
 */
const FERRET_UNIQUE = /UNIQUE constraint failed: index '(?:.*?_[0-9a-f]{8}_)?([^']+)'/;

/** `E11000 duplicate key error collection: db.x index: email_1 dup key: {...}` (MongoDB). */
const MONGO_DUP_INDEX = /index: (\S+) dup key/;

export function isDuplicateKey(err: unknown): boolean {
  return err instanceof MongoServerError && (err.code === 11000 || err.code === 11001 || FERRET_UNIQUE.test(err.message));
}

/** The index a duplicate-key error names, or undefined (FerretDB's inserts name none). */
export function duplicateIndexName(err: MongoServerError): string | undefined {
  return MONGO_DUP_INDEX.exec(err.message)?.[1] ?? FERRET_UNIQUE.exec(err.message)?.[1];
}

/**
 * Turns a driver error into the port's errors; anything else (a bad filter, a bug) is
 * returned unchanged. `index` resolves the index name when the server did not give it.
 */
export function toStoreError(err: unknown, collection: string, index?: string): unknown {
  if (isDuplicateKey(err)) {
    return new DuplicateKeyError(collection, duplicateIndexName(err as MongoServerError) ?? index ?? "unknown");
  }
  if (err instanceof MongoServerError && err.code === 238) {
    return new StoreUnsupportedError(`${collection}: ${err.message}`, { cause: err });
  }
  if (isUnavailable(err)) {
    return new StoreUnavailableError(`database unavailable: ${(err as Error).message}`, { cause: err });
  }
  return err;
}

export function isUnavailable(err: unknown): boolean {
  if (err instanceof MongoNetworkError || err instanceof MongoServerSelectionError) return true;
  if (err instanceof MongoServerError) return typeof err.code === "number" && UNAVAILABLE_CODES.has(err.code);
  return err instanceof Error && UNAVAILABLE_NAMES.has(err.name);
}
