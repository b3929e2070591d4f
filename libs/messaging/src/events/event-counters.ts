import type { CountsByType, EventStats } from "../events.port.ts";

/** The counters behind `stats().events`: one increment per outcome, read when metrics are scraped. */
export class EventCounters {
  private readonly counts = { published: new Map<string, number>(), consumed: new Map<string, number>(), retried: new Map<string, number>(), deadLettered: new Map<string, number>() };

  count(what: Exclude<keyof EventStats, "deadLetteredBy">, type: string): void {
    const counts = this.counts[what];
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }

  private readonly deadBy = new Map<string, { service: string; cause: string; count: number }>();

  /** One dead letter of `service`, by cause (a fixed set: `invalid`, `cannot_apply`, `retry_expired`…). */
  countDead(service: string, cause: string): void {
    const key = `${service}\u0000${cause}`;
    const entry = this.deadBy.get(key) ?? { service, cause, count: 0 };
    entry.count += 1;
    this.deadBy.set(key, entry);
  }

  snapshot(): EventStats {
    const plain = (counts: Map<string, number>): CountsByType => Object.fromEntries(counts);
    const { published, consumed, retried, deadLettered } = this.counts;
    const deadLetteredBy = [...this.deadBy.values()].map((entry) => ({ ...entry }));
    return { published: plain(published), consumed: plain(consumed), retried: plain(retried), deadLettered: plain(deadLettered), deadLetteredBy };
  }
}
