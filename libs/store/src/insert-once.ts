import { DuplicateKeyError, type Collection, type Filter } from "./store.port.ts";

/**
 * Insert-or-conflict, the store's way to let one of many racing writers win: inserts `doc`, or,
 * when a unique index already holds its key, answers the document that holds it (found by
 * `key`, the `_id` by default). `inserted` tells the winner apart.
 */
export async function insertOrGet<T extends { _id: string }>(
  collection: Collection<T>,
  doc: T,
  key: Filter = { _id: doc._id },
): Promise<{ inserted: boolean; doc: T }> {
  try {
    await collection.insertOne(doc);
    return { inserted: true, doc };
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
    const existing = await collection.findOne(key);
    // The holder vanished between our insert and the read (deleted): let the caller retry.
    if (!existing) throw err;
    return { inserted: false, doc: existing };
  }
}

/** Inserts `doc`; false when a unique index already holds its key (the document is not read). */
export async function insertIfAbsent<T extends { _id: string }>(collection: Collection<T>, doc: T): Promise<boolean> {
  try {
    await collection.insertOne(doc);
    return true;
  } catch (err) {
    if (err instanceof DuplicateKeyError) return false;
    throw err;
  }
}
