/**
 * Leases on scheduled jobs (the reconciler's pass), so that of N replicas one runs a job at a
 * time. A holder that dies leaves its lease to run out; the next taker then runs the job.
 */
export interface JobLeasesPort {
  /** Takes the job's lease until `until` when nobody holds it at `now`: the lease id, or null. */
  take(job: string, now: string, until: string): Promise<string | null>;
  /** Gives the lease back (no-op when another took it over meanwhile). */
  release(job: string, leaseId: string): Promise<void>;
}
