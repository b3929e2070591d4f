import { MongoServerError, type Collection as DriverCollection, type Filter as DriverFilter, type UpdateFilter } from "mongodb";
import type { Collection, ConditionalUpdate, Filter, FindOneAndUpdateOptions, FindOptions, IndexSpec, SortSpec, Update } from "../store.port.ts";
import { assertDefinedFilter, isOperatorObject } from "../shared/filter-guard.ts";
import { randomId } from "../shared/random-id.ts";
import { settleAll } from "../shared/settle-all.ts";
import { duplicateIndexName, ferretPgIndexHash, isDuplicateKey, toStoreError } from "./mongo-errors.ts";
import { identifyDuplicateIndex, indexNamedByHash } from "./duplicate-index.ts";
import type { FerretDbWriteLock } from "./ferretdb-write-lock.ts";
import { ferretDeleteOne, ferretFindOneAndUpdate } from "./ferretdb-writes.ts";
import { identityCodec, type StringCodec } from "./ferretdb-nul.ts";

type Doc = { _id: string } & Record<string, unknown>;

export interface MongoCollectionHost {
  /** What the adapter needs to work around FerretDB when the server is FerretDB; else undefined. */
  ferret(): Promise<FerretDbSupport | undefined>;
}

export interface FerretDbSupport {
  /** Conditional writes take it: FerretDB's findAndModify is not atomic (ferretdb-write-lock.ts). */
  lock: FerretDbWriteLock;
  /** Escapes what its PostgreSQL backend cannot store (U+0000, ferretdb-nul.ts). */
  codec: StringCodec;
}

/**
 * A port collection over the driver. Filters and updates pass through unchanged (the port's
 * shapes are MongoDB's); documents come back as plain objects with the caller's string `_id`.
 */
export class MongoStoreCollection<T extends { _id: string }> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly col: DriverCollection<Doc>,
    private readonly host: MongoCollectionHost,
  ) {}

  async insertOne(doc: T): Promise<void> {
    if (typeof doc._id !== "string") throw new Error(`insert into ${this.name}: _id must be a string`);
    // A copy: the driver may decorate what it is given, and the caller's object stays theirs.
    const codec = (await this.host.ferret())?.codec ?? identityCodec;
    const copy = codec.encode({ ...doc }) as unknown as Doc;
    try {
      await this.col.insertOne(copy);
    } catch (err) {
      // FerretDB's insert errors do not name the index; find it by looking (error path only).
      const index = isDuplicateKey(err) ? await identifyDuplicateIndex(this.col, copy).catch(() => undefined) : undefined;
      throw toStoreError(err, this.name, index);
    }
  }

  async findOne(filter: Filter, options: { sort?: SortSpec } = {}): Promise<T | null> {
    const [first] = await this.find(filter, { ...options, limit: 1 });
    return first ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    assertDefinedFilter(filter, this.name);
    const { sort, limit, skip } = options;
    const codec = (await this.host.ferret())?.codec ?? identityCodec;
    const docs = await this.call(() => this.col.find(asDriverFilter(codec.encode(filter)), { sort, limit, skip }).toArray() as Promise<T[]>);
    return codec.decode(docs);
  }

  async countDocuments(filter: Filter): Promise<number> {
    assertDefinedFilter(filter, this.name);
    const codec = (await this.host.ferret())?.codec ?? identityCodec;
    return this.call(() => this.col.countDocuments(asDriverFilter(codec.encode(filter))));
  }

  async estimatedCount(): Promise<number> {
    return this.call(() => this.col.estimatedDocumentCount());
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    assertDefinedFilter(filter, this.name);
    const upsert = options.upsert ?? false;
    const driverUpdate = withUpsertId(filter, update, upsert) as UpdateFilter<Doc>;
    const returnDocument = options.returnDocument ?? "after";
    const ferret = await this.host.ferret();
    if (ferret) {
      const { lock, codec } = ferret;
      const sort = options.sort;
      const write = () =>
        ferretFindOneAndUpdate(this.col, lock, this.name, codec.encode(filter), codec.encode(driverUpdate), { upsert, returnDocument, ...(sort && { sort }) });
      return codec.decode(await this.call(write)) as T | null;
    }
    const driverOptions = { upsert, returnDocument, ...(options.sort && { sort: options.sort }) };
    return this.call(() => this.col.findOneAndUpdate(asDriverFilter(filter), driverUpdate, driverOptions) as Promise<T | null>);
  }

  async updateEach(writes: readonly ConditionalUpdate[]): Promise<number> {
    for (const { filter } of writes) assertDefinedFilter(filter, this.name);
    if (writes.length === 0) return 0;
    // FerretDB's update is not atomic either: each write takes its document's lock, side by side.
    if (await this.host.ferret()) return (await settleAll(writes.map(({ filter, update }) => this.findOneAndUpdate(filter, update)))).filter(Boolean).length;
    const operations = writes.map(({ filter, update }) => ({ updateOne: { filter: asDriverFilter(filter), update: update as UpdateFilter<Doc> } }));
    const result = await this.call(() => this.col.bulkWrite(operations, { ordered: false }));
    return result.matchedCount;
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    assertDefinedFilter(filter, this.name);
    const ferret = await this.host.ferret();
    if (ferret) return this.call(() => ferretDeleteOne(this.col, ferret.lock, this.name, ferret.codec.encode(filter)));
    const result = await this.call(() => this.col.deleteOne(asDriverFilter(filter)));
    return result.deletedCount === 1;
  }

  async deleteOldest(field: string, before: string | number, options: { limit: number }): Promise<number> {
    // The batch's last value bounds a range delete. A list of `_id`s would be exact, but
    // FerretDB matches `$in` by scanning the list for every document (20,000 ids over 10^5
    // documents: two minutes, against 6 s for the range), and MongoDB's deleteMany takes no limit.
    const last = await this.call(() =>
      this.col.find({ [field]: { $lt: before } }, { sort: { [field]: 1 }, skip: options.limit - 1, limit: 1, projection: { [field]: 1 } }).next(),
    );
    const through = last?.[field] as string | number | undefined;
    const range = through === undefined ? { $lt: before } : { $lt: before, $lte: through };
    const result = await this.call(() => this.col.deleteMany({ [field]: range }));
    return result.deletedCount;
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    const options = {
      unique: spec.unique ?? false,
      ...(spec.name && { name: spec.name }),
      ...(spec.partialFilterExpression && { partialFilterExpression: (await this.host.ferret())?.codec.encode(spec.partialFilterExpression) ?? spec.partialFilterExpression }),
    };
    // The name MongoDB gives an unnamed index, for a unique build that meets duplicates.
    const indexName = spec.name ?? Object.entries(spec.keys).map(([field, order]) => `${field}_${order}`).join("_");
    await this.call(() => this.col.createIndex(spec.keys, options), indexName);
  }

  async dropIndex(name: string): Promise<void> {
    try {
      await this.col.dropIndex(name);
    } catch (err) {
      // IndexNotFound (27) or NamespaceNotFound (26): nothing to drop, as the port promises.
      if (err instanceof MongoServerError && (err.code === 27 || err.code === 26 || /index not found|ns not found/i.test(err.message))) return;
      throw toStoreError(err, this.name, undefined);
    }
  }

  /** Runs a driver call, turning its errors into the port's (naming the index of a duplicate). */
  private async call<R>(operation: () => Promise<R>, index?: string): Promise<R> {
    try {
      return await operation();
    } catch (err) {
      throw toStoreError(err, this.name, index ?? (await this.duplicateIndexOf(err)));
    }
  }

  /** FerretDB on PostgreSQL names a duplicate's index only by a hash of its name: look it up. */
  private async duplicateIndexOf(err: unknown): Promise<string | undefined> {
    if (!(err instanceof MongoServerError) || !isDuplicateKey(err) || duplicateIndexName(err)) return undefined;
    const hash = ferretPgIndexHash(err);
    return hash ? indexNamedByHash(this.col, hash).catch(() => undefined) : undefined;
  }
}

function asDriverFilter(filter: Filter): DriverFilter<Doc> {
  return filter as DriverFilter<Doc>;
}

/**
 * An upsert whose filter does not pin `_id` would get a server-made ObjectId; give it a
 * random string instead, so no Mongo type ever reaches a caller.
 */
function withUpsertId(filter: Filter, update: Update, upsert: boolean): Update {
  const pinned = filter._id !== undefined && (!isOperatorObject(filter._id) || "$eq" in filter._id);
  if (!upsert || pinned || update.$set?._id !== undefined || update.$setOnInsert?._id !== undefined) return update;
  return { ...update, $setOnInsert: { ...update.$setOnInsert, _id: randomId() } };
}
