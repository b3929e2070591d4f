import type { Update } from "../store.port.ts";
import { plainCopy } from "../shared/plain-copy.ts";
import { setPath, getPath, unsetPath } from "./dotted-path.ts";

type Doc = Record<string, unknown>;

const OPERATORS = ["$set", "$inc", "$push", "$setOnInsert", "$unset"] as const;

/**
 * Applies MongoDB update operators to `doc` itself and returns it: callers hand in a document
 * of their own (just parsed from its row, or a fresh upsert seed), so copying it first would
 * only cost a deep clone per write. The values taken from `update` are copied, so the result
 * shares nothing with the caller's update. `$setOnInsert` applies only when `inserting`.
 * Mirrors the server's refusals (two operators on one path, `$inc` on a non-number, `$push` on
 * a non-array, changing `_id`) so that code which works on the embedded store does not fail
 * later on MongoDB.
 */
export function applyUpdate(doc: Doc, update: Update, inserting: boolean): Doc {
  assertValidUpdate(update);
  const id = doc._id;
  const next = doc;
  for (const [path, value] of entries(update.$set)) setPath(next, path, plainCopy(value));
  if (inserting) {
    for (const [path, value] of entries(update.$setOnInsert)) setPath(next, path, plainCopy(value));
  }
  for (const [path, amount] of entries(update.$inc)) {
    if (typeof amount !== "number") throw new Error(`$inc of "${path}" needs a number`);
    const current = getPath(next, path);
    if (current !== undefined && typeof current !== "number") {
      throw new Error(`cannot apply $inc to "${path}": it is not a number`);
    }
    setPath(next, path, (current ?? 0) + amount);
  }
  for (const [path, value] of entries(update.$push)) {
    const current = getPath(next, path);
    if (current !== undefined && !Array.isArray(current)) {
      throw new Error(`the field "${path}" must be an array for $push`);
    }
    setPath(next, path, [...(current ?? []), ...pushedItems(value)]);
  }
  for (const path of Object.keys(update.$unset ?? {})) unsetPath(next, path);
  if (!inserting && next._id !== id) {
    throw new Error("performing an update on the path '_id' would modify the immutable field '_id'");
  }
  return next;
}

/** `$push: {f: {$each: [...]}}` appends several items, like MongoDB. */
function pushedItems(value: unknown): unknown[] {
  if (value !== null && typeof value === "object" && !Array.isArray(value) && "$each" in value) {
    const each = (value as { $each: unknown }).$each;
    if (!Array.isArray(each)) throw new Error("$each needs an array");
    return plainCopy(each);
  }
  return [plainCopy(value)];
}

function assertValidUpdate(update: Update): void {
  const keys = Object.keys(update);
  if (keys.length === 0) throw new Error("an update needs at least one operator");
  const unknown = keys.filter((k) => !(OPERATORS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new Error(`unsupported update operator(s): ${unknown.join(", ")}`);
  // MongoDB refuses an update where one path is the same as, or inside, another.
  const paths = OPERATORS.flatMap((op) => entries<unknown>(update[op]).map(([path]) => path));
  for (let i = 0; i < paths.length; i++) {
    for (let j = i + 1; j < paths.length; j++) {
      const [a, b] = [paths[i] as string, paths[j] as string];
      if (a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`)) {
        throw new Error(`updating the path '${a}' would create a conflict at '${b}'`);
      }
    }
  }
}

/** Entries whose value is defined: MongoDB (with `ignoreUndefined`) never sees the others. */
function entries<V>(record: Record<string, V> | undefined): [string, V][] {
  return Object.entries(record ?? {}).filter(([, value]) => value !== undefined);
}
