import { randomUUID } from "node:crypto";
import { DuplicateKeyError, type Store } from "@payrail/store";
import type { JobLeasesPort } from "../domain/shared/ports/job-leases.port.ts";

type JobLease = { _id: string; leaseId: string | null; leaseUntil: string | null };

/** Job leases (`_id` = the job's name), one conditional write each. */
export class JobLeaseRepository implements JobLeasesPort {
  constructor(private readonly store: Store) {}

  private get leases() {
    return this.store.collection<JobLease>("payments_job_leases");
  }

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

  async release(job: string, leaseId: string): Promise<void> {
    await this.leases.findOneAndUpdate({ _id: job, leaseId }, { $set: { leaseId: null, leaseUntil: null } });
  }
}
