import type { Collection as DriverCollection, Document } from "mongodb";
import { fnv1a32 } from "./mongo-errors.ts";

/**
 * Which unique index `doc` collides with, found by looking: FerretDB's insert error says only
 * "E11000 duplicate key error collection: db.x", while callers need the index to tell, say, a
 * repeated `_id` from a repeated merchant reference. Runs on the error path only.
 */
export async function identifyDuplicateIndex(col: DriverCollection<{ _id: string }>, doc: Record<string, unknown>): Promise<string | undefined> {
  if (await col.findOne({ _id: doc._id as string }, { projection: { _id: 1 } })) return "_id_";
  for (const index of await col.listIndexes().toArray()) {
    if (!index.unique || !index.key) continue;
    const sameKeys: Document = { _id: { $ne: doc._id } };
    for (const field of Object.keys(index.key as Document)) sameKeys[field] = valueAt(doc, field) ?? null;
    if (await col.findOne(sameKeys, { projection: { _id: 1 } })) return String(index.name);
  }
  return undefined;
}

function valueAt(doc: Record<string, unknown>, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), doc);
}

/** The index of `col` whose name hashes to `hash` (see ferretPgIndexHash), if any. */
export async function indexNamedByHash(col: DriverCollection<{ _id: string }>, hash: string): Promise<string | undefined> {
  for (const index of await col.listIndexes().toArray()) {
    if (fnv1a32(String(index.name)) === hash) return String(index.name);
  }
  return undefined;
}
