import type { Logger } from "@payrail/runtime";
import type { Collection, Store } from "../store.port.ts";
import { assertCollectionName } from "../shared/collection-name.ts";
import { nextSequenceValue, type CounterDoc } from "../shared/next-sequence.ts";
import { EmbeddedCollection } from "./embedded.collection.ts";
import { migrateNedbFiles } from "./nedb-migration.ts";
import { sqlName } from "./sql-expression.ts";
import { SqliteHost } from "./sqlite-host.ts";
import type { CheckpointSettings } from "./wal-checkpointer.ts";

export interface EmbeddedStoreOptions {
  /** Folder holding the store's SQLite file; undefined keeps everything in memory. */
  dir?: string | undefined;
  logger: Logger;
  /** The checkpoint worker's pace (wal-checkpointer.ts); tests pass smaller ones. */
  checkpoints?: Partial<CheckpointSettings> | undefined;
}

/**
 * The embedded store: one SQLite file (`payrail.sqlite`) under `dir`, through better-sqlite3.
 * One process at a time (the launcher's pid file guards DATA_DIR); indexes, uniqueness and
 * each conditional write are SQLite's. Data written by the earlier nedb-based store in the
 * same folder is imported on first open (nedb-migration.ts).
 */
export function createEmbeddedStore(options: EmbeddedStoreOptions): Store {
  const log = options.logger.child({ component: "embedded-store" });
  const host = new SqliteHost(
    options.dir,
    log,
    (db) => {
      if (options.dir) migrateNedbFiles(db, options.dir, (name) => host.state(name), log);
    },
    options.checkpoints,
  );
  const collections = new Map<string, EmbeddedCollection<{ _id: string }>>();

  const store: Store = {
    collection<T extends { _id: string }>(name: string): Collection<T> {
      assertCollectionName(name);
      let collection = collections.get(name);
      if (!collection) {
        collection = new EmbeddedCollection(name, host);
        collections.set(name, collection);
      }
      return collection as unknown as Collection<T>;
    },
    nextSequence: (name) => nextSequenceValue(store.collection<CounterDoc>("counters"), name),
    reserveSequence: (name, count) => nextSequenceValue(store.collection<CounterDoc>("counters"), name, count),
    async ping() {
      host.read("_ping", () => host.prepare("SELECT 1").get());
    },
    async drop() {
      await host.write("_drop", () => {
        const db = host.db();
        const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'c\\_%' ESCAPE '\\'").all() as { name: string }[];
        for (const { name } of tables) db.exec(`DROP TABLE ${sqlName(name)}`);
        db.exec("DELETE FROM _indexes; DELETE FROM _array_paths;");
      });
      host.forget();
    },
    async close() {
      await host.close();
      log.debug({ dir: options.dir }, "embedded store closed");
    },
  };
  return store;
}
