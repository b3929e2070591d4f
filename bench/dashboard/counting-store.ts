/**
 * A store that counts its round trips: every collection call and sequence step of `inner` adds
 * one to `calls` (a write that matched nothing counts as much as one that did). The payout run's
 * bench counts with it rather than from reading the code, so a change to the use cases shows.
 */
import type { Collection, Store } from "@payrail/store";

export interface CountingStore extends Store {
  /** Round trips since the last `reset`. */
  readonly calls: number;
  reset(): void;
}

export function countingStore(inner: Store): CountingStore {
  let calls = 0;
  const counted =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      calls++;
      return fn(...args);
    };
  const collection = <T extends { _id: string }>(name: string): Collection<T> => {
    const c = inner.collection<T>(name);
    return {
      name: c.name,
      insertOne: counted((doc: T) => c.insertOne(doc)),
      findOne: counted((filter, options) => c.findOne(filter, options)),
      find: counted((filter, options) => c.find(filter, options)),
      countDocuments: counted((filter) => c.countDocuments(filter)),
      estimatedCount: counted(() => c.estimatedCount()),
      findOneAndUpdate: counted((filter, update, options) => c.findOneAndUpdate(filter, update, options)),
      deleteOne: counted((filter) => c.deleteOne(filter)),
      deleteOldest: counted((field, before, options) => c.deleteOldest(field, before, options)),
      createIndex: (spec) => c.createIndex(spec),
      dropIndex: (name) => c.dropIndex(name),
    };
  };
  return {
    get calls() {
      return calls;
    },
    reset: () => void (calls = 0),
    collection,
    nextSequence: counted((name: string) => inner.nextSequence(name)),
    reserveSequence: counted((name: string, count: number) => inner.reserveSequence(name, count)),
    ping: () => inner.ping(),
    drop: () => inner.drop(),
    close: () => inner.close(),
  };
}
