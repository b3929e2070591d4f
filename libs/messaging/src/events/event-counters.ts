import type { CountsByType, EventStats } from "../events.port.ts";

/** The counters behind `stats().events`: one increment per outcome, read when metrics are scraped. */
export class EventCounters {
  private readonly counts = { published: new Map<string, number>(), consumed: new Map<string, number>(), retried: new Map<string, number>(), deadLettered: new Map<string, number>() };

  count(what: keyof EventStats, type: string): void {
    const counts = this.counts[what];
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }

  snapshot(): EventStats {
    const plain = (counts: Map<string, number>): CountsByType => Object.fromEntries(counts);
    const { published, consumed, retried, deadLettered } = this.counts;
    return { published: plain(published), consumed: plain(consumed), retried: plain(retried), deadLettered: plain(deadLettered) };
  }
}
