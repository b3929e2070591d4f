import { MongoClient } from "mongodb";
import type { Logger } from "@payrail/runtime";
import type { Collection, Store } from "../store.port.ts";
import { assertCollectionName } from "../shared/collection-name.ts";
import { nextSequenceValue, type CounterDoc } from "../shared/next-sequence.ts";
import { FerretDbWriteLock } from "./ferretdb-write-lock.ts";
import { MongoStoreCollection, type FerretDbSupport, type MongoCollectionHost } from "./mongo.collection.ts";
import { nulCodec } from "./ferretdb-nul.ts";
import { toStoreError } from "./mongo-errors.ts";
import { detectServerFlavour, type ServerFlavour } from "./server-flavour.ts";

export interface MongoStoreOptions {
  /** A `mongodb://` or `mongodb+srv://` URL. */
  url: string;
  dbName: string;
  logger: Logger;
  /**
   * How long an operation waits for a reachable server before failing with
   * StoreUnavailableError. Low by default (2 s) so a request fails fast with 503 rather
   * than hanging for the driver's default 30 s.
   */
  serverSelectionTimeoutMS?: number;
}

/** Collections the store itself uses; services should not name theirs the same. */
export const RESERVED_COLLECTIONS = ["counters", "store_locks"] as const;

/**
 * The MongoDB store. Creating it does not connect: the driver connects on first use, so a
 * service can start while the database is still coming up and `ping()` tells when it is.
 * Works on FerretDB too, whose gaps it detects (see FerretDbWriteLock) or reports
 * (StoreUnsupportedError for partial indexes).
 */
export function createMongoStore(options: MongoStoreOptions): Store {
  const log = options.logger.child({ component: "mongo-store", db: options.dbName });
  const client = new MongoClient(options.url, {
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 2_000,
    // Drop undefined fields as the embedded store does, instead of storing them as null.
    ignoreUndefined: true,
    appName: "payrail",
  });
  const db = client.db(options.dbName);

  let flavour: Promise<ServerFlavour> | undefined;
  const serverFlavour = (): Promise<ServerFlavour> => {
    if (!flavour) {
      flavour = detectServerFlavour(db).then(
        (found) => {
          log.info(found, found.ferretdb ? "store on FerretDB: conditional writes go through per-document locks, NUL characters are escaped" : "store on MongoDB");
          return found;
        },
        (err: unknown) => {
          flavour = undefined; // detect again once the database is back
          throw toStoreError(err, "(buildInfo)");
        },
      );
    }
    return flavour;
  };

  const ferret: FerretDbSupport = { lock: new FerretDbWriteLock(db.collection("store_locks")), codec: nulCodec };
  const host: MongoCollectionHost = {
    async ferret() {
      return (await serverFlavour()).ferretdb ? ferret : undefined;
    },
  };

  const store: Store = {
    collection<T extends { _id: string }>(name: string): Collection<T> {
      assertCollectionName(name);
      return new MongoStoreCollection<T>(name, db.collection(name), host);
    },
    nextSequence: (name) => nextSequenceValue(store.collection<CounterDoc>("counters"), name),
    async ping() {
      try {
        await db.command({ ping: 1 });
      } catch (err) {
        throw toStoreError(err, "(ping)");
      }
    },
    async drop() {
      try {
        await db.dropDatabase();
      } catch (err) {
        throw toStoreError(err, "(dropDatabase)");
      }
    },
    async close() {
      await client.close();
      log.debug("mongo store closed");
    },
  };
  return store;
}
