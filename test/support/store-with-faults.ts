import type { Collection, Filter, Store, Update } from "@payrail/store";

/** One conditional write a service makes: where, on what, and the change. */
export interface StoreWrite {
  collection: string;
  filter: Filter;
  update: Update;
}

export interface WriteFaults {
  /** Runs before the write reaches the store: throwing fails it unwritten; never resolving is a process that died before it. */
  before?(write: StoreWrite): Promise<void>;
  /** Runs once the write matched and was made, before its caller sees the result: a crash between two writes. */
  after?(write: StoreWrite): Promise<void>;
  /** Runs when the write matched nothing (a condition that no longer held: a lease taken over, say), before its caller learns so. */
  missed?(write: StoreWrite): Promise<void>;
  /** Runs before an insert reaches the store (refused ones included): throwing fails it unwritten. */
  inserting?(collection: string, doc: { _id: string }): Promise<void>;
}

/**
 * A fake of the store port: `inner` with `faults` around every findOneAndUpdate (the store's one
 * conditional write, through which every state change goes) and before every insert. A test passes it to a service
 * where production passes the real store, to fail or hang a use case at a chosen write; the
 * production code carries no hook of its own. Everything else passes straight through.
 */
export function storeWithFaults(inner: Store, faults: WriteFaults): Store {
  const collection = <T extends { _id: string }>(name: string): Collection<T> => {
    const c = inner.collection<T>(name);
    return {
      name: c.name,
      async insertOne(doc) {
        await faults.inserting?.(name, doc);
        return c.insertOne(doc);
      },
      findOne: (filter, options) => c.findOne(filter, options),
      find: (filter, options) => c.find(filter, options),
      countDocuments: (filter) => c.countDocuments(filter),
      estimatedCount: () => c.estimatedCount(),
      async findOneAndUpdate(filter, update, options) {
        const write = { collection: name, filter, update };
        await faults.before?.(write);
        const out = await c.findOneAndUpdate(filter, update, options);
        await (out ? faults.after?.(write) : faults.missed?.(write));
        return out;
      },
      // One by one through the faults above: each is a conditional write of its own.
      async updateEach(writes) {
        let matched = 0;
        for (const { filter, update } of writes) if (await this.findOneAndUpdate(filter, update)) matched++;
        return matched;
      },
      deleteOne: (filter) => c.deleteOne(filter),
      deleteOldest: (field, before, options) => c.deleteOldest(field, before, options),
      createIndex: (spec) => c.createIndex(spec),
      dropIndex: (name) => c.dropIndex(name),
    };
  };
  return {
    collection,
    nextSequence: (name) => inner.nextSequence(name),
    reserveSequence: (name, count) => inner.reserveSequence(name, count),
    ping: () => inner.ping(),
    drop: () => inner.drop(),
    close: () => inner.close(),
  };
}

/** A write that moves a refund to `processing`: a refund payout recorded, its transfer not yet asked for. */
export function refundToProcessing(write: StoreWrite): boolean {
  return write.collection === "refunds" && write.update.$set?.["status"] === "processing";
}
