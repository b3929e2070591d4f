import { MongoClient, type Collection as DriverCollection, type Document } from "mongodb";
import type { Logger } from "@payrail/runtime";
import type { Collection, Store } from "../store.port.ts";
import { assertCollectionName } from "../shared/collection-name.ts";
import { nextSequenceValue, type CounterDoc } from "../shared/next-sequence.ts";
import { FerretDbWriteLock } from "./ferretdb-write-lock.ts";
import { MongoStoreCollection, type FerretDbSupport, type MongoCollectionHost } from "./mongo.collection.ts";
import { nulCodec } from "./ferretdb-nul.ts";
import { toStoreError } from "./mongo-errors.ts";
import { detectServerFlavour, type ServerFlavour } from "./server-flavour.ts";
import { watchMonitor } from "./monitor-watchdog.ts";

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
  const open = () =>
    new MongoClient(options.url, {
      serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 2_000,
      // Drop undefined fields as the embedded store does, instead of storing them as null.
      ignoreUndefined: true,
      appName: "payrail",
      // Bounds one monitor check (the driver's default is 30 s), so the watchdog below can tell a hung monitor sooner.
      connectTimeoutMS: 10_000,
    });
  let client = open();
  let db = client.db(options.dbName);
  // The driver's monitor can hang on a connection that died under it (docs/decisions/0038-fault-suites.md): the server then stays unknown and every call fails until the process restarts.
  // The watchdog replaces such a client; collections follow the current one.
  const watchdog = watchMonitor(client, () => {
    log.warn("the MongoDB driver's monitor stopped checking an unreachable server: reconnecting with a new client");
    const stuck = client;
    client = open();
    db = client.db(options.dbName);
    collections.clear();
    watchdog.follow(client);
    void stuck.close(true).catch(() => undefined);
  });
  const collections = new Map<string, DriverCollection>();
  /** A driver collection that always reaches the current client's database. */
  const live = <D extends Document>(name: string): DriverCollection<D> =>
    new Proxy({} as DriverCollection<D>, {
      get(_, property) {
        let driver = collections.get(name);
        if (!driver) collections.set(name, (driver = db.collection(name)));
        const current = driver as unknown as Record<PropertyKey, unknown>;
        const value = current[property];
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(current) : value;
      },
    });

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

  const ferret: FerretDbSupport = { lock: new FerretDbWriteLock(live("store_locks")), codec: nulCodec };
  const host: MongoCollectionHost = {
    async ferret() {
      return (await serverFlavour()).ferretdb ? ferret : undefined;
    },
  };

  const store: Store = {
    collection<T extends { _id: string }>(name: string): Collection<T> {
      assertCollectionName(name);
      return new MongoStoreCollection<T>(name, live(name), host);
    },
    nextSequence: (name) => nextSequenceValue(store.collection<CounterDoc>("counters"), name),
    reserveSequence: (name, count) => nextSequenceValue(store.collection<CounterDoc>("counters"), name, count),
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
      watchdog.stop();
      await client.close();
      log.debug("mongo store closed");
    },
  };
  return store;
}
