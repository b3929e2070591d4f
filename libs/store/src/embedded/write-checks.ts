import { matches } from "./document-match.ts";
import type { StoredIndex } from "./index-spec.ts";
import { arrayPaths } from "./multikey-paths.ts";

type Doc = Record<string, unknown>;

/** Stands for a key that is an object, an array or a boolean: SQLite's own unique check covers those. */
export const NOT_SCALAR_KEY = Symbol("not a scalar key");

/** A key's value as the null-key check reads it. */
export type KeyValue = string | number | null | typeof NOT_SCALAR_KEY;

/** A unique index in which a document's key has a null, with that key's values by field. */
export interface NullKeyed {
  index: StoredIndex;
  keyOf(field: string): KeyValue;
}

/**
 * What a write checks of a document before storing it, read from the document alone: the unique
 * indexes in which its key has a null (MongoDB indexes a missing field as null, so two documents
 * missing a unique field collide, which SQLite's NULLs would not), and the paths at which it
 * holds arrays (multikey-paths.ts). An insert works them out when it is called, from the
 * document as it is then, and uses them only if the collection still has the same indexes when
 * its write runs (`sameIndexes`).
 */
export interface WriteChecks {
  nullKeyed: NullKeyed[];
  arrays: string[];
}

export function writeChecks(indexes: readonly StoredIndex[], doc: Doc): WriteChecks {
  const nullKeyed: NullKeyed[] = [];
  let stored: Doc | undefined;
  for (const index of indexes) {
    if (!index.unique) continue;
    const fields = Object.keys(index.keys);
    if (!fields.some((field) => storedKey(valueAt(doc, field)) === null)) continue;
    // A partial index's filter is matched on the document as its JSON text holds it (rarely
    // needed: only for a null key in a partial unique index).
    if (index.partialFilterExpression && !matches((stored ??= JSON.parse(JSON.stringify(doc)) as Doc), index.partialFilterExpression)) continue;
    // Copied now: the caller's object may change once the checks have been worked out.
    const keys = new Map<string, KeyValue>(fields.map((field) => [field, storedKey(valueAt(doc, field))]));
    nullKeyed.push({ index, keyOf: (field) => keys.get(field) ?? null });
  }
  return { nullKeyed, arrays: arrayPaths(doc) };
}

/** True when `before` (a copy taken earlier) holds exactly the indexes of `now`. */
export function sameIndexes(before: readonly StoredIndex[], now: readonly StoredIndex[]): boolean {
  return before.length === now.length && before.every((index, i) => index === now[i]);
}

/** The value at a dotted path, missing counting as null (MongoDB's index key rule). */
export function valueAt(doc: Doc, path: string): unknown {
  let node: unknown = doc;
  for (const key of path.split(".")) {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return null;
    node = (node as Doc)[key];
  }
  return node ?? null;
}

/**
 * A key as the stored JSON text holds it, since the check may read the caller's object rather
 * than the text: what `toJSON` gives (a Date's ISO string), and a number JSON cannot write as null.
 */
function storedKey(value: unknown): KeyValue {
  const json = value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function" ? (value as { toJSON(): unknown }).toJSON() : value;
  if (typeof json === "number") return Number.isFinite(json) ? json : null;
  return json === null || json === undefined ? null : typeof json === "string" ? json : NOT_SCALAR_KEY;
}
