import type { Logger } from "@payrail/runtime";
import type { Store } from "./store.port.ts";
import { createEmbeddedStore } from "./embedded/embedded.store.ts";
import { withIndexCheck } from "./index-coverage/index-checked.store.ts";

export interface StoreConfig {
  /** MONGODB_URL: when set, the MongoDB adapter is used. */
  mongodbUrl?: string | undefined;
  /** MONGODB_DB: the database name used with mongodbUrl (default "payrail"). */
  dbName?: string | undefined;
  /** DATA_DIR: the embedded store's folder; undefined keeps data in memory (tests). */
  dataDir?: string | undefined;
  logger: Logger;
  /**
   * What a query no declared index serves does: "enforce" (default) fails it, "warn" logs its
   * shape once (production, where a failed request is worse than a slow one).
   */
  indexCheck?: "enforce" | "warn";
}

/**
 * MongoDB when a URL is given, else the embedded store (single process). Resolves once the
 * store answers a ping, so a launcher fails fast (StoreUnavailableError within seconds) on
 * an unreachable database or an unusable data folder instead of failing on first request.
 */
export async function createStore(config: StoreConfig): Promise<Store> {
  const raw = config.mongodbUrl
    ? await openMongo(config.mongodbUrl, config)
    : createEmbeddedStore({ dir: config.dataDir, logger: config.logger });
  const store = withIndexCheck(raw, { mode: config.indexCheck ?? "enforce", logger: config.logger });
  try {
    await store.ping();
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
  return store;
}

/**
 * The MongoDB adapter, imported only when it is used: a process on the embedded store then never
 * loads the `mongodb` driver (its code and bson's buffers, about 20 MB of memory).
 */
async function openMongo(url: string, config: StoreConfig): Promise<Store> {
  const { createMongoStore } = await import("./mongo/mongo.store.ts");
  return createMongoStore({ url, dbName: config.dbName ?? "payrail", logger: config.logger });
}
