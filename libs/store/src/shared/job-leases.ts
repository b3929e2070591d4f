import { randomUUID } from "node:crypto";
import { DuplicateKeyError, type Store } from "../store.port.ts";

type JobLease = { _id: string; leaseId: string | null; leaseUntil: string | null; fence?: number };

/** A lease taken: its id (to give it back) and its fencing token (see `takeFenced`). */
export interface FencedLease {
  leaseId: string;
  fence: number;
}

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
    return (await this.takeFenced(job, now, until))?.leaseId ?? null;
  }

  /**
   * `take`, with the lease's fencing token: a number that grows with each taking of the job, in
   * the same write. A holder whose lease ran out while it stalled still holds a smaller token than
   * the one who took over, so writes that require the token (≥ the one they last saw) refuse it.
   */
  async takeFenced(job: string, now: string, until: string): Promise<FencedLease | null> {
    const leaseId = randomUUID();
    try {
      const taken = await this.leases.findOneAndUpdate(
        { _id: job, $or: [{ leaseId: null }, { leaseUntil: { $lt: now } }] },
        { $set: { leaseId, leaseUntil: until }, $inc: { fence: 1 } },
        { upsert: true },
      );
      return taken?.leaseId === leaseId ? { leaseId, fence: taken.fence ?? 1 } : null;
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
