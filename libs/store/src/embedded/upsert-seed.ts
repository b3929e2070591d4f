import type { Filter } from "../store.port.ts";
import { isOperatorObject } from "../shared/filter-guard.ts";
import { plainCopy } from "../shared/plain-copy.ts";
import { setPath } from "./dotted-path.ts";

type Doc = Record<string, unknown>;

/**
 * The document an upsert starts from, as MongoDB builds it: every top-level equality of the
 * filter (`field: value` or `field: {$eq: value}`, dotted paths becoming nested objects).
 * Range conditions, `$in`, `$or` and the like contribute nothing.
 */
export function seedFromFilter(filter: Filter): Doc {
  const seed: Doc = {};
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith("$")) continue;
    if (isOperatorObject(condition)) {
      if ("$eq" in condition) setPath(seed, field, plainCopy(condition.$eq));
    } else {
      setPath(seed, field, plainCopy(condition));
    }
  }
  return seed;
}
