import type { Collection as DriverCollection, Filter as DriverFilter, UpdateFilter } from "mongodb";
import type { Collection, Filter, FindOneAndUpdateOptions, FindOptions, IndexSpec, SortSpec, Update } from "../store.port.ts";
import { assertDefinedFilter, isOperatorObject } from "../shared/filter-guard.ts";
import { randomId } from "../shared/random-id.ts";
import { isDuplicateKey, toStoreError } from "./mongo-errors.ts";
import { identifyDuplicateIndex } from "./duplicate-index.ts";

type Doc = { _id: string } & Record<string, unknown>;

export interface MongoCollectionHost {
  /** Runs a conditional write so it stays atomic: directly on MongoDB, under a lock on FerretDB. */
  serialise<R>(collection: string, write: () => Promise<R>): Promise<R>;
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
    const copy = { ...doc } as unknown as Doc;
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
    return this.call(() => this.col.find(asDriverFilter(filter), { sort, limit, skip }).toArray() as Promise<T[]>);
  }

  async countDocuments(filter: Filter): Promise<number> {
    assertDefinedFilter(filter, this.name);
    return this.call(() => this.col.countDocuments(asDriverFilter(filter)));
  }

  async estimatedCount(): Promise<number> {
    return this.call(() => this.col.estimatedDocumentCount());
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    assertDefinedFilter(filter, this.name);
    const upsert = options.upsert ?? false;
    const driverUpdate = withUpsertId(filter, update, upsert) as UpdateFilter<Doc>;
    const driverOptions = { upsert, returnDocument: options.returnDocument ?? "after", ...(options.sort && { sort: options.sort }) };
    return this.call(() =>
      this.host.serialise(this.name, () => this.col.findOneAndUpdate(asDriverFilter(filter), driverUpdate, driverOptions) as Promise<T | null>),
    );
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    assertDefinedFilter(filter, this.name);
    const result = await this.call(() => this.host.serialise(this.name, () => this.col.deleteOne(asDriverFilter(filter))));
    return result.deletedCount === 1;
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    const options = {
      unique: spec.unique ?? false,
      ...(spec.name && { name: spec.name }),
      ...(spec.partialFilterExpression && { partialFilterExpression: spec.partialFilterExpression }),
    };
    await this.call(() => this.col.createIndex(spec.keys, options));
  }

  private async call<R>(operation: () => Promise<R>): Promise<R> {
    try {
      return await operation();
    } catch (err) {
      throw toStoreError(err, this.name);
    }
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
