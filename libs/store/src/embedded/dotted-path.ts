/**
 * Reading and writing `a.b.c` paths in plain documents, with MongoDB's update rules: missing
 * intermediate objects are created; walking through a non-object is an error.
 */
type Doc = Record<string, unknown>;

export function getPath(doc: Doc, path: string): unknown {
  let node: unknown = doc;
  for (const key of path.split(".")) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Doc)[key];
  }
  return node;
}

export function setPath(doc: Doc, path: string, value: unknown): void {
  const { parent, key } = parentOf(doc, path, true);
  if (parent) parent[key] = value;
}

export function unsetPath(doc: Doc, path: string): void {
  const { parent, key } = parentOf(doc, path, false);
  if (parent) delete parent[key];
}

/** The object that holds the last segment, creating intermediates when `create`. */
function parentOf(doc: Doc, path: string, create: boolean): { parent: Doc | undefined; key: string } {
  const keys = path.split(".");
  if (keys.some((k) => k === "" || k.startsWith("$"))) throw new Error(`invalid field path "${path}"`);
  const last = keys.pop() as string;
  let node: Doc = doc;
  for (const key of keys) {
    const next = node[key];
    if (next === undefined) {
      if (!create) return { parent: undefined, key: last };
      node[key] = {};
    } else if (next === null || typeof next !== "object") {
      throw new Error(`cannot use the part (${key}) of (${path}) to traverse the element`);
    }
    node = node[key] as Doc;
  }
  return { parent: node, key: last };
}
