import { randomUUID } from "node:crypto";
import { DuplicateKeyError, type Store } from "../store.port.ts";

type JobLease = { _id: string; leaseId: string | null; leaseUntil: string | null };

/**
 * Leases on a service's scheduled jobs (`_id` = the job's name) in its own collection, so that of
 * N replicas one runs a job at a time; one conditional write each. A holder that dies leaves its
 * lease to run out; the next taker then runs the job.
 */
export class JobLeases {
  constructor(
    private readonly store: Store,
    private readonly collectionName: string,
  ) {}

  private get leases() {
    return this.store.collection<JobLease>(this.collectionName);
  }

  /** Takes the job's lease until `until` when nobody holds it at `now`: the lease id, or null. */
  async take(job: string, now: string, until: string): Promise<string | null> {
    const leaseId = randomUUID();
    try {
      const taken = await this.leases.findOneAndUpdate(
        { _id: job, $or: [{ leaseId: null }, { leaseUntil: { $lt: now } }] },
        { $set: { leaseId, leaseUntil: until } },
        { upsert: true },
      );
      return taken?.leaseId === leaseId ? leaseId : null;
    } catch (err) {
      // The job's first lease, raced by another replica's upsert: theirs.
      if (err instanceof DuplicateKeyError) return null;
      throw err;
    }
  }

  /** Gives the lease back (no-op when another took it over meanwhile). */
  async release(job: string, leaseId: string): Promise<void> {
    await this.leases.findOneAndUpdate({ _id: job, leaseId }, { $set: { leaseId: null, leaseUntil: null } });
  }
}
