import { createRetentionSweep, insertIfAbsent, olderThan, within, type Filter, type RetentionSweep, type Store } from "@payrail/store";
import type { Logger } from "@payrail/runtime";
import { AUDIT_LOG_KEEP_MS, type AuditEntryDoc } from "../domain/audit-entry.entity.ts";
import type { AuditLogFilter, AuditLogPort } from "../domain/ports/audit-log.port.ts";

export const AUDIT_LOG_COLLECTION = "audit_log";
/** A sweep at most hourly: entries expire by the day, two years on. */
const SWEEP_EVERY_MS = 3_600_000;
/** Entries deleted per pass; a sweep runs passes until one comes back short. */
const SWEEP_BATCH = 10_000;

/**
 * The merchants' audit entries (`_id` from the event that carried each). Kept two years: a
 * retention sweep on `created_at` deletes older entries in bounded passes (the store has no TTL
 * index: FerretDB v1 refuses `expireAfterSeconds`).
 */
export class AuditLogRepository implements AuditLogPort {
  private readonly sweep: RetentionSweep;

  constructor(
    private readonly store: Store,
    options: { now?: () => number; logger?: Logger } = {},
  ) {
    const now = options.now ?? Date.now;
    this.sweep = createRetentionSweep({
      collection: this.entries,
      field: "createdAt",
      before: () => new Date(now() - AUDIT_LOG_KEEP_MS).toISOString(),
      batch: SWEEP_BATCH,
      everyMs: SWEEP_EVERY_MS,
      now,
      onError: (err) => options.logger?.warn({ err }, "audit log retention sweep failed; tried again within the hour"),
    });
  }

  private get entries() {
    return this.store.collection<AuditEntryDoc>(AUDIT_LOG_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    // The list, with and without from/to: newest first, then by id; and by action.
    await this.entries.createIndex({ keys: { merchantId: 1, createdAt: -1, _id: -1 }, name: "merchant_newest" });
    await this.entries.createIndex({ keys: { merchantId: 1, action: 1, createdAt: -1, _id: -1 }, name: "merchant_action_newest" });
    // The retention sweep: the oldest entries first.
    await this.entries.createIndex({ keys: { createdAt: 1 }, name: "created_at" });
  }

  insert(doc: AuditEntryDoc): Promise<boolean> {
    return insertIfAbsent(this.entries, doc);
  }

  find(id: string): Promise<AuditEntryDoc | null> {
    return this.entries.findOne({ _id: id });
  }

  list(filter: AuditLogFilter, limit: number, after?: Pick<AuditEntryDoc, "_id" | "createdAt">): Promise<AuditEntryDoc[]> {
    const query: Filter = { merchantId: filter.merchantId };
    if (filter.action !== undefined) query["action"] = filter.action;
    const created = within(filter);
    if (created) query["createdAt"] = created;
    if (after) query.$or = olderThan("createdAt", after);
    return this.entries.find(query, { sort: { createdAt: -1, _id: -1 }, limit });
  }

  sweepDue(): void {
    this.sweep.due();
  }

  /** Sweeps now until caught up (tests and `payrail` maintenance); how many entries it deleted. */
  sweepNow(): Promise<number> {
    return this.sweep.run();
  }
}
