import type { JobLeasesPort } from "../shared/ports/job-leases.port.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import { reviewEvent, type ReviewActor, type ReviewRecord } from "./review.entity.ts";
import { applyReviewOutcome, type ReviewOutcomeDeps } from "./apply-review-outcome.ts";

const PAGE = 200;
const EXPIRY: ReviewActor = { type: "system", id: "review_expiry" };

/**
 * One sweep of the fraud reviews, under the `review_sweep` job lease (one replica at a time):
 * open reviews past REVIEW_EXPIRES_HOURS are expired (one conditional write from `open` after
 * their time, with review.closed) and their debits cancelled; decisions whose outcome a crash
 * kept from their debit (an approval that never reached the provider) are applied again, the
 * approved debit resuming like any transfer. Errors on one review are logged; the next sweep retries.
 */
export async function sweepReviews(deps: ReviewOutcomeDeps & { jobs: JobLeasesPort }, leaseMs: number): Promise<{ busy: boolean; expired: number; applied: number }> {
  const started = deps.now();
  const lease = await deps.jobs.take("review_sweep", started.toISOString(), new Date(started.getTime() + leaseMs).toISOString());
  if (!lease) return { busy: true, expired: 0, applied: 0 };
  const meta: RequestMeta = { requestId: `review-sweep-${started.toISOString()}`, principal: { kind: "service", service: "payments" } };
  const report = { busy: false, expired: 0, applied: 0 };
  const each = async (review: ReviewRecord, work: () => Promise<void>) => {
    try {
      await work();
    } catch (err) {
      deps.logger.warn({ err, requestId: meta.requestId, reviewId: review._id }, "review sweep: could not finish this review; the next sweep tries again");
    }
  };
  try {
    const at = started.toISOString();
    for (const review of await deps.reviews.expired(at, PAGE)) {
      await each(review, async () => {
        const after: ReviewRecord = { ...review, status: "expired", closedAt: at, closedBy: EXPIRY, applied: false, version: review.version + 1 };
        const closed = await deps.reviews.close(review._id, { status: "expired", at, by: EXPIRY }, reviewEvent("review.closed", after, deps.livemode));
        if (!closed) return;
        deps.events.written();
        report.expired++;
        await applyReviewOutcome(deps, meta, closed);
      });
    }
    // A decision still being applied by its own call is left to it for one transfer lease.
    const before = new Date(started.getTime() - deps.leaseMs).toISOString();
    for (const review of await deps.reviews.unapplied(before, PAGE)) {
      await each(review, async () => {
        await applyReviewOutcome(deps, meta, review);
        report.applied++;
      });
    }
  } finally {
    await deps.jobs.release("review_sweep", lease);
  }
  if (report.expired + report.applied > 0) deps.logger.info({ requestId: meta.requestId, ...report }, "review sweep done");
  return report;
}
