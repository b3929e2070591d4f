import type { Command } from "commander";

/**
 * `payrail indexes`: creates every index the domain services query by, where missing, and
 * nothing else (no consumer, no worker, no document written). The services create theirs at
 * start too; run ahead of a rollout (the Helm chart's pre-upgrade Job does), a new index over a
 * large collection is built here rather than inside a starting process's startup probe.
 */
export function defineCommand(indexes: Command): void {
  indexes.action(async () => (await import("./run-indexes.ts")).runIndexes());
}
