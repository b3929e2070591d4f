import { AppError, requireMerchantWriter, type Principal, type Review } from "@payrail/contracts";
import { auditEvents, type AuditMeta } from "@payrail/runtime";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import { reviewEvent, toReview, type ReviewActor, type ReviewRecord } from "./review.entity.ts";
import { applyReviewOutcome, type ReviewOutcomeDeps } from "./apply-review-outcome.ts";

/**
 * A merchant's decision on a held debit (an api-key, or a dashboard owner or admin; viewers
 * are refused): one conditional write from `open` (and before it expires) to `approved` or
 * `cancelled`, with review.closed and its audit entry. Of 20 racing approvals one wins; the others, like a decision
 * on a review already closed or expired, answer 409 `review_closed`. The winner then applies
 * the outcome (an approval sends the debit); a failure there (the provider down) leaves the
 * review approved for the sweep to finish, and answers the review as it stands.
 */
export async function decideReview(deps: ReviewOutcomeDeps, meta: RequestMeta & AuditMeta, principal: Principal, reviewId: string, decision: "approve" | "cancel"): Promise<Review> {
  const merchant = requireMerchantWriter(principal);
  const review = await deps.reviews.find(reviewId);
  if (!review || review.merchantId !== merchant.merchantId) throw reviewNotFound(reviewId);
  const at = deps.now().toISOString();
  const by: ReviewActor = merchant.userId ? { type: "user", id: merchant.userId } : { type: "api_key", id: merchant.keyPrefix };
  const status = decision === "approve" ? "approved" : "cancelled";
  const after: ReviewRecord = { ...review, status, closedAt: at, closedBy: by, applied: false, version: review.version + 1 };
  const object = { type: "review", id: reviewId };
  const audit = auditEvents(meta, { service: "payments", merchantId: merchant.merchantId, action: decision === "approve" ? "review.approved" : "review.cancelled", object, at, livemode: deps.livemode });
  const closed = await deps.reviews.close(reviewId, { status, at, by }, reviewEvent("review.closed", after, deps.livemode), audit);
  if (!closed) {
    const now = await deps.reviews.find(reviewId);
    const state = now?.status === "open" ? "expired (it is being cancelled)" : `${now?.status ?? "gone"}`;
    throw new AppError("review_closed", `review ${reviewId} is ${state}; it can no longer be decided`, { param: "id" });
  }
  deps.events.written();
  try {
    await applyReviewOutcome(deps, meta, closed);
  } catch (err) {
    deps.logger.warn({ err, requestId: meta.requestId, reviewId }, "the review's outcome did not reach its debit yet; the review sweep finishes it");
  }
  return toReview((await deps.reviews.find(reviewId)) ?? closed);
}

export function reviewNotFound(reviewId: string): AppError {
  return new AppError("review_not_found", `no review ${reviewId}`, { param: "id" });
}
