import type { Config, Logger } from "@payrail/runtime";
import { createStore, type Store } from "@payrail/store";

/** The configured store (MONGODB_URL's, else the embedded one in DATA_DIR), as the services and the CLI's store commands open it. */
export function openStore(config: Config, logger: Logger): Promise<Store> {
  // Unindexed queries fail in development and tests; production logs them instead of failing requests.
  const indexCheck = process.env.NODE_ENV === "production" ? "warn" : "enforce";
  return createStore({ mongodbUrl: config.MONGODB_URL, dbName: config.MONGODB_DB, dataDir: config.DATA_DIR, logger, indexCheck });
}
