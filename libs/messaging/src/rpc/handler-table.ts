import type { HandlerEntry } from "../transport.port.ts";

/** A service's handlers keyed by pattern. */
export type HandlerTable = ReadonlyMap<string, HandlerEntry>;

/**
 * Builds the pattern → handler map for one service, refusing entries of another service
 * (they would never be routed to this queue) and duplicate patterns (one would be dead code).
 */
export function createHandlerTable(service: string, entries: HandlerEntry[]): HandlerTable {
  const table = new Map<string, HandlerEntry>();
  for (const entry of entries) {
    const { pattern, service: owner } = entry.operation;
    if (owner !== service) throw new Error(`${pattern} belongs to service "${owner}", not "${service}"`);
    if (table.has(pattern)) throw new Error(`duplicate handler for ${pattern}`);
    table.set(pattern, entry);
  }
  return table;
}
