/**
 * @payrail/store/mongo: the MongoDB adapter on its own, for suites and tools that open it
 * directly. Kept out of the package's main entry so that a process on the embedded store never
 * loads the `mongodb` driver (about 20 MB of memory): createStore imports this adapter only
 * when MONGODB_URL is set.
 */
export { createMongoStore, RESERVED_COLLECTIONS, type MongoStoreOptions } from "./mongo.store.ts";
