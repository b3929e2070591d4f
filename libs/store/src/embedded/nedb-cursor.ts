import type { Datastore as Nedb } from "./nedb-datastore.ts";
import type { FindOptions } from "../store.port.ts";
import { toNedbQuery } from "./nedb-query.ts";
import type { Filter } from "../store.port.ts";

type Doc = Record<string, unknown>;

/**
 * Typed wrappers over nedb cursors (its typings describe every cursor as resolving to one
 * document). nedb hands back deep copies from find, so callers never hold its cached objects.
 */
export async function findDocs(ds: Nedb, filter: Filter, options: FindOptions = {}): Promise<Doc[]> {
  let cursor = ds.findAsync(toNedbQuery(filter));
  if (options.sort) cursor = cursor.sort(options.sort);
  if (options.skip) cursor = cursor.skip(options.skip);
  if (options.limit) cursor = cursor.limit(options.limit);
  return (await cursor) as unknown as Doc[];
}

export async function countDocs(ds: Nedb, filter: Filter): Promise<number> {
  return (await ds.countAsync(toNedbQuery(filter))) as unknown as number;
}
