import { DuplicateKeyError, type Collection } from "../store.port.ts";

/** The document behind a named sequence in the `counters` collection. */
export interface CounterDoc {
  _id: string;
  seq: number;
}

/**
 * `count` steps of a named sequence in one upserting `$inc`, atomic wherever findOneAndUpdate
 * is; returns the last value reserved (the counter keeps the highest value ever handed out).
 * Two first-ever calls may both try to insert the counter (MongoDB before 4.2 does not retry
 * that itself); the loser's DuplicateKeyError is retried, and then it simply increments.
 */
export async function nextSequenceValue(counters: Collection<CounterDoc>, name: string, count = 1): Promise<number> {
  if (!Number.isSafeInteger(count) || count < 1) throw new Error(`sequence ${name}: cannot reserve ${count} values`);
  for (let attempt = 1; ; attempt++) {
    try {
      const counter = await counters.findOneAndUpdate({ _id: name }, { $inc: { seq: count } }, { upsert: true });
      if (!counter) throw new Error(`sequence ${name}: upsert returned nothing`);
      return counter.seq;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError) || attempt >= 3) throw err;
    }
  }
}
