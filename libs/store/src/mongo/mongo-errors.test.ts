import { MongoError, MongoNetworkError, MongoNetworkTimeoutError, MongoServerError, MongoServerSelectionError } from "mongodb";
import { describe, expect, it } from "vitest";
import { DuplicateKeyError, StoreUnavailableError } from "../store.port.ts";
import { toStoreError } from "./mongo-errors.ts";

/** A socket error as Node makes it (`write EPIPE`, code, errno, syscall). */
function socketError(code: string, syscall = "write"): NodeJS.ErrnoException {
  return Object.assign(new Error(`${syscall} ${code}`), { code, errno: -1, syscall });
}

function serverError(code: number, errmsg: string, labels: string[] = []): MongoServerError {
  return new MongoServerError({ ok: 0, code, errmsg, errorLabels: labels });
}

function named(name: string, message: string): Error {
  return Object.defineProperty(new Error(message), "name", { value: name });
}

function labelled<E extends MongoError>(err: E, label: string): E {
  err.addErrorLabel(label);
  return err;
}

const SOCKET_CODES = ["EPIPE", "ECONNRESET", "ECONNREFUSED", "ECONNABORTED", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENETDOWN", "ENOTFOUND", "EAI_AGAIN", "ERR_STREAM_DESTROYED"];

describe("toStoreError", () => {
  it.each(SOCKET_CODES)("makes a bare socket error %s (the driver passes some through unwrapped) StoreUnavailableError", (code) => {
    const err = socketError(code);
    const mapped = toStoreError(err, "checkouts");
    expect(mapped).toBeInstanceOf(StoreUnavailableError);
    expect((mapped as Error).cause).toBe(err);
  });

  it("makes every driver failure of the connection, the pool or server selection StoreUnavailableError", () => {
    const failures: Error[] = [
      new MongoNetworkError("connection 3 to 127.0.0.1:27017 closed"),
      new MongoNetworkTimeoutError("connection 3 to 127.0.0.1:27017 timed out"),
      new MongoServerSelectionError("Server selection timed out after 2000 ms", { servers: new Map() } as never),
      // The driver's classes it does not export, known by name.
      named("MongoWaitQueueTimeoutError", "Timed out while checking out a connection from connection pool"),
      named("MongoPoolClearedError", "Connection pool for 127.0.0.1:27017 was cleared"),
      new MongoError("unexpected error writing to socket", { cause: socketError("EPIPE") }),
      labelled(new MongoError("the server is overloaded"), "SystemOverloadedError"),
    ];
    for (const err of failures) expect(toStoreError(err, "checkouts"), err.message).toBeInstanceOf(StoreUnavailableError);
  });

  it("makes a server stepping down, shutting down, recovering or out of time StoreUnavailableError", () => {
    for (const code of [6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]) {
      expect(toStoreError(serverError(code, "node is not available"), "checkouts"), String(code)).toBeInstanceOf(StoreUnavailableError);
    }
    expect(toStoreError(serverError(2, "went wrong", ["RetryableWriteError"]), "checkouts")).toBeInstanceOf(StoreUnavailableError);
    expect(toStoreError(serverError(50, "operation exceeded time limit"), "checkouts")).toBeInstanceOf(StoreUnavailableError);
  });

  it("makes FerretDB's backend outages (InternalError naming PostgreSQL's or SQLite's trouble) StoreUnavailableError", () => {
    for (const message of [
      "failed to connect to `host=127.0.0.1 user=ferret database=ferretdb`: dial error (dial tcp 127.0.0.1:5432: connect: connection refused)",
      "conn closed",
      "write tcp 127.0.0.1:40000->127.0.0.1:5432: write: broken pipe",
      "FATAL: the database system is shutting down (SQLSTATE 57P01)",
      "database is locked (5) (SQLITE_BUSY)",
    ]) {
      expect(toStoreError(serverError(1, message), "checkouts"), message).toBeInstanceOf(StoreUnavailableError);
    }
  });

  it("leaves errors of the request or of the code as they are, and still tells a duplicate key", () => {
    const untouched: Error[] = [
      new Error("bad filter"),
      Object.assign(new Error("ENOENT: no such file"), { code: "ENOENT" }),
      serverError(2, "unknown operator: $nope"),
      serverError(1, "some other internal error"),
      new TypeError("x is not a function"),
    ];
    for (const err of untouched) expect(toStoreError(err, "checkouts"), err.message).toBe(err);
    expect(toStoreError(serverError(11000, "E11000 duplicate key error collection: db.x index: email_1 dup key: { email: 1 }"), "x")).toBeInstanceOf(DuplicateKeyError);
  });
});
