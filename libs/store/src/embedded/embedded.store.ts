import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "@payrail/runtime";
import { StoreUnavailableError, type Collection, type Store } from "../store.port.ts";
import { assertCollectionName } from "../shared/collection-name.ts";
import { KeyedMutex } from "../shared/keyed-mutex.ts";
import { nextSequenceValue, type CounterDoc } from "../shared/next-sequence.ts";
import { Datastore as Nedb } from "./nedb-datastore.ts";
import { EmbeddedCollection, type CollectionHost } from "./embedded.collection.ts";
import type { StoredIndex } from "./unique-indexes.ts";

export interface EmbeddedStoreOptions {
  /** Folder holding one `<collection>.db` file per collection; undefined keeps everything in memory. */
  dir?: string | undefined;
  logger: Logger;
  /** How often datafiles that grew are rewritten (nedb only appends). Default 60 s. */
  compactIntervalMs?: number;
}

interface LoadedCollection {
  ds: Nedb;
  indexes: StoredIndex[];
}

/**
 * The embedded store: file-backed, for a single process (two processes on one folder would
 * corrupt it). Writes are serialised per collection; see EmbeddedCollection. Index
 * definitions are kept in `_indexes.meta` so uniqueness holds across restarts.
 */
export function createEmbeddedStore(options: EmbeddedStoreOptions): Store {
  const { dir, logger } = options;
  const log = logger.child({ component: "embedded-store" });
  const loaded = new Map<string, Promise<LoadedCollection>>();
  const collections = new Map<string, EmbeddedCollection<{ _id: string }>>();
  const dirty = new Set<string>();
  const writeLock = new KeyedMutex();
  let closed = false;

  const open = async (file: string): Promise<Nedb> => {
    const ds = dir ? new Nedb({ filename: join(dir, file) }) : new Nedb({ inMemoryOnly: true });
    try {
      // Loading also rewrites the file, which compacts whatever the last run appended.
      await ds.loadDatabaseAsync();
    } catch (err) {
      log.error({ err, file }, "cannot load embedded datafile");
      throw new StoreUnavailableError(`embedded store cannot open ${file}: ${(err as Error).message}`, { cause: err });
    }
    return ds;
  };
  let meta: Promise<Nedb> | undefined;
  const indexMeta = (): Promise<Nedb> => {
    if (!meta) {
      meta = open("_indexes.meta");
      meta.catch(() => (meta = undefined)); // retried on the next call, like collections
    }
    return meta;
  };

  const load = async (name: string): Promise<LoadedCollection> => {
    const [ds, metaDs] = await Promise.all([open(`${name}.db`), indexMeta()]);
    const rows = (await metaDs.findAsync({ collection: name })) as unknown as { index: StoredIndex }[];
    return { ds, indexes: rows.map((r) => r.index) };
  };

  const host: CollectionHost = {
    writeLock,
    state(name) {
      if (closed) return Promise.reject(new StoreUnavailableError("embedded store is closed"));
      let state = loaded.get(name);
      if (!state) {
        state = load(name);
        loaded.set(name, state);
        // A failed load (unwritable folder) is retried on the next call rather than cached.
        state.catch(() => loaded.delete(name));
      }
      return state;
    },
    async saveIndex(collection, index) {
      const metaDs = await indexMeta();
      await metaDs.updateAsync({ _id: `${collection}/${index.name}` }, { collection, index }, { upsert: true });
    },
    wrote: (name) => dirty.add(name),
  };

  const compact = async (names: string[]): Promise<void> => {
    for (const name of names) {
      dirty.delete(name);
      const state = await loaded.get(name)?.catch(() => undefined);
      await state?.ds.compactDatafileAsync().catch((err: unknown) => log.warn({ err, collection: name }, "compaction failed"));
    }
  };
  // nedb's own autocompaction timer would keep the process alive; this one is unref'd.
  const timer = dir
    ? setInterval(() => void compact([...dirty]), options.compactIntervalMs ?? 60_000).unref()
    : undefined;

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
    async ping() {
      if (closed) throw new StoreUnavailableError("embedded store is closed");
      if (dir) await indexMeta();
    },
    async drop() {
      const names = new Set(loaded.keys());
      if (dir) for (const file of await readdir(dir).catch(() => [])) if (file.endsWith(".db")) names.add(file.slice(0, -3));
      for (const name of names) {
        await writeLock.run(name, async () => {
          const { ds, indexes } = await host.state(name);
          await ds.removeAsync({}, { multi: true });
          indexes.length = 0;
          dirty.add(name);
        });
      }
      await (await indexMeta()).removeAsync({}, { multi: true });
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await writeLock.idle();
      if (dir) await compact([...dirty]);
      log.debug({ dir }, "embedded store closed");
    },
  };
  return store;
}
