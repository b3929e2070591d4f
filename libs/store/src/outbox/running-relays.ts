import type { OutboxStats } from "./outbox-relay.ts";

/** What metrics read of a running relay: which collections it empties, and its counters. */
export interface RunningRelay {
  readonly collections: readonly string[];
  stats(): OutboxStats;
}

const relays = new Set<RunningRelay>();

/**
 * The relays running in this process. Each service creates its relay in its composition root;
 * metrics find them here (a relay adds itself on start, removes itself on stop) instead of every
 * service handing its relay to the launcher.
 */
export const runningRelays = {
  add: (relay: RunningRelay) => void relays.add(relay),
  delete: (relay: RunningRelay) => void relays.delete(relay),
  list: (): RunningRelay[] => [...relays],
};
