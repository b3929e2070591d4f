/**
 * nedb's matcher, used to test one in-memory document against a query with exactly the rules
 * the datastore applies (for partial-index filters). The module is part of the published
 * package (`lib/**`) but has no typings of its own.
 */
declare module "@seald-io/nedb/lib/model.js" {
  export function match(doc: unknown, query: unknown): boolean;
}
