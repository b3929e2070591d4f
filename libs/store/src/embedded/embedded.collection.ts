import type { Datastore as Nedb } from "./nedb-datastore.ts";
import {
  DuplicateKeyError,
  type Collection,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type SortSpec,
  type Update,
} from "../store.port.ts";
import type { KeyedMutex } from "../shared/keyed-mutex.ts";
import { assertDefinedFilter } from "../shared/filter-guard.ts";
import { plainCopy } from "../shared/plain-copy.ts";
import { randomId } from "../shared/random-id.ts";
import { countDocs, findDocs } from "./nedb-cursor.ts";
import { applyUpdate } from "./update-operators.ts";
import { seedFromFilter } from "./upsert-seed.ts";
import { findUniqueViolation, hasExistingDuplicates, sameIndex, toStoredIndex, type StoredIndex } from "./unique-indexes.ts";

type Doc = Record<string, unknown>;

/** What a collection needs from its store: its loaded datastore, index persistence, the lock. */
export interface CollectionHost {
  /** Loads the collection on first use; throws StoreUnavailableError once the store is closed. */
  state(name: string): Promise<{ ds: Nedb; indexes: StoredIndex[] }>;
  saveIndex(collection: string, index: StoredIndex): Promise<void>;
  /** Held around every write of a collection, so read-check-write sequences are atomic. */
  writeLock: KeyedMutex;
  /** Marks the datafile as grown since its last compaction. */
  wrote(name: string): void;
}

/**
 * One collection of the embedded store. nedb stores and matches documents; everything nedb
 * cannot do atomically (conditional update with arbitrary operators, upsert, partial-unique
 * indexes) happens here under the collection's write lock, so it behaves like MongoDB for a
 * single process.
 */
export class EmbeddedCollection<T extends { _id: string }> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly host: CollectionHost,
  ) {}

  async insertOne(doc: T): Promise<void> {
    if (typeof doc._id !== "string") throw new Error(`insert into ${this.name}: _id must be a string`);
    const copy = plainCopy(doc) as Doc;
    await this.write(async ({ ds, indexes }) => {
      await this.assertUnique(ds, indexes, copy, true);
      await ds.insertAsync(copy);
    });
  }

  async findOne(filter: Filter, options: { sort?: SortSpec } = {}): Promise<T | null> {
    const [first] = await this.find(filter, { ...options, limit: 1 });
    return first ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    assertDefinedFilter(filter, this.name);
    const { ds } = await this.host.state(this.name);
    return (await findDocs(ds, filter, options)) as T[];
  }

  async countDocuments(filter: Filter): Promise<number> {
    assertDefinedFilter(filter, this.name);
    const { ds } = await this.host.state(this.name);
    return countDocs(ds, filter);
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    assertDefinedFilter(filter, this.name);
    const returnBefore = options.returnDocument === "before";
    return this.write(async ({ ds, indexes }) => {
      const [found] = await findDocs(ds, filter, { sort: options.sort, limit: 1 });
      if (found) {
        const next = applyUpdate(found, update, false);
        await this.assertUnique(ds, indexes, next, false);
        await ds.updateAsync({ _id: found._id }, next, {});
        return (returnBefore ? found : next) as T;
      }
      if (!options.upsert) return null;
      const created = applyUpdate(seedFromFilter(filter), update, true);
      created._id ??= randomId();
      if (typeof created._id !== "string") throw new Error(`upsert into ${this.name}: _id must be a string`);
      await this.assertUnique(ds, indexes, created, true);
      await ds.insertAsync(created);
      return returnBefore ? null : (created as T);
    });
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    assertDefinedFilter(filter, this.name);
    return this.write(async ({ ds }) => {
      const [found] = await findDocs(ds, filter, { limit: 1 });
      if (!found) return false;
      return (await ds.removeAsync({ _id: found._id }, {})) === 1;
    });
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    const wanted = toStoredIndex(spec);
    await this.write(async ({ ds, indexes }) => {
      const existing = indexes.find((i) => i.name === wanted.name || sameKeys(i, wanted));
      if (existing) {
        if (sameIndex(existing, wanted)) return;
        throw new Error(`index ${wanted.name} on ${this.name} conflicts with existing index ${existing.name}`);
      }
      if (wanted.unique && hasExistingDuplicates(await findDocs(ds, {}), wanted)) {
        throw new DuplicateKeyError(this.name, wanted.name);
      }
      // nedb's own (non-unique) index on the first key only speeds up lookups and unique
      // checks; uniqueness itself is enforced above, because nedb has no partial indexes.
      const [first] = Object.keys(wanted.keys);
      if (first && first !== "_id") await ds.ensureIndexAsync({ fieldName: first });
      await this.host.saveIndex(this.name, wanted);
      indexes.push(wanted);
    });
  }

  private async assertUnique(ds: Nedb, indexes: StoredIndex[], doc: Doc, isNew: boolean): Promise<void> {
    const violated = await findUniqueViolation(ds, indexes, doc, isNew);
    if (violated) throw new DuplicateKeyError(this.name, violated);
  }

  private async write<R>(section: (state: { ds: Nedb; indexes: StoredIndex[] }) => Promise<R>): Promise<R> {
    return this.host.writeLock.run(this.name, async () => {
      const result = await section(await this.host.state(this.name));
      this.host.wrote(this.name);
      return result;
    });
  }
}

function sameKeys(a: StoredIndex, b: StoredIndex): boolean {
  return JSON.stringify(a.keys) === JSON.stringify(b.keys);
}
