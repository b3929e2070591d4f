/**
 * A store that counts its round trips: every collection call and sequence step of `inner` adds
 * one to `calls` and to its line in `byCall` (`<collection> <operation>`; an insert the store
 * refused as a duplicate also to `<collection> insertOne refused`). A write that matched nothing
 * counts as much as one that did. The benches count with it rather than from reading the code,
 * so a change to the use cases shows.
 */
import { DuplicateKeyError, type Collection, type Store } from "@payrail/store";

export interface CountingStore extends Store {
  /** Round trips since the last `reset`. */
  readonly calls: number;
  /** The same by `<collection> <operation>` (sequences as `(sequence) next` and `(sequence) reserve`). */
  readonly byCall: ReadonlyMap<string, number>;
  reset(): void;
}

export function countingStore(inner: Store): CountingStore {
  let calls = 0;
  const byCall = new Map<string, number>();
  const note = (key: string) => byCall.set(key, (byCall.get(key) ?? 0) + 1);
  const counted =
    <A extends unknown[], R>(key: string, fn: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      calls++;
      note(key);
      return fn(...args);
    };
  const collection = <T extends { _id: string }>(name: string): Collection<T> => {
    const c = inner.collection<T>(name);
    return {
      name: c.name,
      insertOne: counted(`${name} insertOne`, (doc: T) =>
        c.insertOne(doc).catch((err: unknown) => {
          if (err instanceof DuplicateKeyError) note(`${name} insertOne refused`);
          throw err;
        }),
      ),
      findOne: counted(`${name} findOne`, (filter, options) => c.findOne(filter, options)),
      find: counted(`${name} find`, (filter, options) => c.find(filter, options)),
      countDocuments: counted(`${name} countDocuments`, (filter) => c.countDocuments(filter)),
      estimatedCount: counted(`${name} estimatedCount`, () => c.estimatedCount()),
      findOneAndUpdate: counted(`${name} findOneAndUpdate`, (filter, update, options) => c.findOneAndUpdate(filter, update, options)),
      updateEach: counted(`${name} updateEach`, (writes) => c.updateEach(writes)),
      deleteOne: counted(`${name} deleteOne`, (filter) => c.deleteOne(filter)),
      deleteOldest: counted(`${name} deleteOldest`, (field, before, options) => c.deleteOldest(field, before, options)),
      createIndex: (spec) => c.createIndex(spec),
      dropIndex: (name) => c.dropIndex(name),
    };
  };
  return {
    get calls() {
      return calls;
    },
    byCall,
    reset: () => {
      calls = 0;
      byCall.clear();
    },
    collection,
    nextSequence: counted("(sequence) next", (name: string) => inner.nextSequence(name)),
    reserveSequence: counted("(sequence) reserve", (name: string, count: number) => inner.reserveSequence(name, count)),
    ping: () => inner.ping(),
    drop: () => inner.drop(),
    close: () => inner.close(),
  };
}
