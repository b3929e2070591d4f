/**
 * The paths at which a document holds an array (`items`, `a.tags`), not descending into the
 * arrays. The store remembers them per collection, like MongoDB marks an index multikey: a
 * query on a path at or below one of them cannot be answered by a plain SQL comparison
 * (MongoDB matches array elements), so it is narrowed less and checked in JavaScript.
 */
export function arrayPaths(doc: Record<string, unknown>, prefix = "", into: string[] = []): string[] {
  // Runs on every write, over the whole document: a path is spelled only for the arrays and
  // objects found, not for each of the many scalar fields.
  for (const key of Object.keys(doc)) {
    const value = doc[key];
    if (value === null || typeof value !== "object") continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (Array.isArray(value)) into.push(path);
    else arrayPaths(value as Record<string, unknown>, path, into);
  }
  return into;
}

/** True when `path` is one of `arrays` or lies below one. */
export function throughArray(arrays: ReadonlySet<string>, path: string): boolean {
  if (arrays.size === 0) return false;
  let end = path.indexOf(".");
  while (end !== -1) {
    if (arrays.has(path.slice(0, end))) return true;
    end = path.indexOf(".", end + 1);
  }
  return arrays.has(path);
}
