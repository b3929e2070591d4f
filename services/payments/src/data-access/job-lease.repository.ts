import { JobLeases, type Store } from "@payrail/store";
import type { JobLeasesPort } from "../domain/shared/ports/job-leases.port.ts";

/** Payments' job leases (the reconciler's pass, the review sweep). */
export class JobLeaseRepository extends JobLeases implements JobLeasesPort {
  constructor(store: Store) {
    super(store, "payments_job_leases");
  }
}
