import { requireMerchant, type Principal, type Review, type ReviewListQuery } from "@payrail/contracts";
import type { ReviewsPort } from "./ports/reviews.port.ts";
import { toReview } from "./review.entity.ts";
import { reviewNotFound } from "./decide-review.use-case.ts";

/** The merchant's reviews, newest first (cursor pages; a cursor of another merchant's is unknown). */
export async function listReviews(deps: { reviews: ReviewsPort }, principal: Principal, query: ReviewListQuery): Promise<{ data: Review[]; has_more: boolean }> {
  const { merchantId } = requireMerchant(principal);
  let beforeKey: string | undefined;
  if (query.starting_after) {
    const cursor = await deps.reviews.find(query.starting_after);
    if (!cursor || cursor.merchantId !== merchantId) throw reviewNotFound(query.starting_after);
    beforeKey = cursor.sortKey;
  }
  const docs = await deps.reviews.list(merchantId, query.limit + 1, query.status, beforeKey);
  return { data: docs.slice(0, query.limit).map(toReview), has_more: docs.length > query.limit };
}

export async function getReview(deps: { reviews: ReviewsPort }, principal: Principal, reviewId: string): Promise<Review> {
  const { merchantId } = requireMerchant(principal);
  const review = await deps.reviews.find(reviewId);
  if (!review || review.merchantId !== merchantId) throw reviewNotFound(reviewId);
  return toReview(review);
}
