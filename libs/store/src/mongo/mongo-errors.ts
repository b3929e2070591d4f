import { MongoError, MongoNetworkError, MongoServerError, MongoServerSelectionError } from "mongodb";
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
  "MongoNetworkTimeoutError",
  "MongoPoolClearedError",
]);

/**
 * Server codes for a node that is stepping down, shutting down, unreachable or out of time: the
 * driver's retryable codes (HostUnreachable … ReadConcernMajorityNotAvailableYet).
 */
const UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 133, 134, 189, 262, 9001, 10058, 10107, 11600, 11602, 13435, 13436]);

/** Labels the driver or the server puts on an error a retry may cure. */
const TRANSIENT_LABELS = ["RetryableWriteError", "ResetPool", "PoolRequestedRetry", "SystemOverloadedError", "RetryableError"];

/**
 * Node's codes for a connection that broke or never formed. The driver wraps most socket
 * failures in MongoNetworkError, but not all: a command written while the socket's buffer is
 * full waits for `drain`, and the socket's error (EPIPE after the server went away) then
 * reaches the caller as it is.
 */
const SOCKET_CODES = new Set([
  "EPIPE",
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENETRESET",
  "ENOTCONN",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ERR_SOCKET_CLOSED",
  "ERR_SOCKET_CONNECTION_TIMEOUT",
  "ERR_STREAM_DESTROYED",
  "ERR_STREAM_WRITE_AFTER_END",
]);

/**
 * FerretDB passes its backend's outage through as InternalError (code 1) with the backend's
 * words: PostgreSQL unreachable, restarting or full of clients, SQLite busy or locked.
 */
const FERRET_BACKEND_DOWN =
  /failed to connect to|conn closed|connection refused|connection reset by peer|broken pipe|unexpected EOF|the database system is (?:starting up|shutting down|in recovery mode)|too many clients|SQLITE_BUSY|SQLITE_LOCKED|database is locked/;

/**
 * FerretDB v1 (SQLite) reports a unique violation found while updating, or while building a
 * unique index, as InternalError (code 1) quoting SQLite, e.g.
 * `UNIQUE constraint failed: index 'x_fd0c5087_email_u'` (table `<collection>_<hash>`, then
 * the index name).
 */
const FERRET_UNIQUE = /UNIQUE constraint failed: index '(?:.*?_[0-9a-f]{8}_)?([^']+)'/;

/**
 * FerretDB v1 (PostgreSQL) passes PostgreSQL's unique violation (SQLSTATE 23505) on updates and
 * index builds through as InternalError, naming its own index, e.g.
 * `duplicate key value violates unique constraint "x_fd0c5087_email_unique_fdc48a5f_idx"`:
 * table, the index name lowercased (and cut), the FNV-1a hash of the real name, `_idx`.
 */
const FERRET_PG_UNIQUE = /(?:violates unique constraint|could not create unique index) "([^"]+)"/;
const FERRET_PG_INDEX_HASH = /_([0-9a-f]{8})_idx$/;

/** FerretDB's answer when a command's `maxTimeMS` ran out (MongoDB says MaxTimeMSExpired, 50). */
const FERRET_DEADLINE = /context deadline exceeded/;

/** `E11000 duplicate key error collection: db.x index: email_1 dup key: {...}` (MongoDB). */
const MONGO_DUP_INDEX = /index: (\S+) dup key/;

export function isDuplicateKey(err: unknown): boolean {
  return (
    err instanceof MongoServerError &&
    (err.code === 11000 || err.code === 11001 || FERRET_UNIQUE.test(err.message) || FERRET_PG_UNIQUE.test(err.message))
  );
}

/**
 * For FerretDB's PostgreSQL unique violations, the FNV-1a hash of the index's name (its
 * PostgreSQL name keeps only a lowercased, possibly cut copy of the name); see
 * `indexNamedByHash`.
 */
export function ferretPgIndexHash(err: MongoServerError): string | undefined {
  const pgIndex = FERRET_PG_UNIQUE.exec(err.message)?.[1];
  return pgIndex ? FERRET_PG_INDEX_HASH.exec(pgIndex)?.[1] : undefined;
}

/** FNV-1a, 32 bits, as 8 hex digits: how FerretDB (PostgreSQL) names an index's SQL index. */
export function fnv1a32(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, "utf8")) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
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
  if (err instanceof MongoServerError && (err.code === 50 || (err.code === 1 && FERRET_DEADLINE.test(err.message)))) {
    return new StoreUnavailableError(`${collection}: the database did not finish in time (${err.message})`, { cause: err });
  }
  if (isUnavailable(err)) {
    return new StoreUnavailableError(`database unavailable: ${(err as Error).message}`, { cause: err });
  }
  return err;
}

/**
 * Whether the error, or one it wraps (a few `cause` links), says the database is out of reach,
 * overloaded or restarting rather than that the request was wrong: a retry may succeed.
 */
export function isUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (isTransient(e)) return true;
  }
  return false;
}

function isTransient(err: Error): boolean {
  if (err instanceof MongoNetworkError || err instanceof MongoServerSelectionError) return true;
  if (err instanceof MongoError && TRANSIENT_LABELS.some((label) => err.hasErrorLabel(label))) return true;
  if (err instanceof MongoServerError) {
    return typeof err.code === "number" && (UNAVAILABLE_CODES.has(err.code) || (err.code === 1 && FERRET_BACKEND_DOWN.test(err.message)));
  }
  const code = (err as NodeJS.ErrnoException).code;
  return UNAVAILABLE_NAMES.has(err.name) || (typeof code === "string" && SOCKET_CODES.has(code));
}
