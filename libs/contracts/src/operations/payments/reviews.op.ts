import { z } from "zod";
import { AnnualReview, AnnualReviewBody, FraudMonitoringEvidence, Review, ReviewListQuery, ReviewListResponse } from "../../http/reviews.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The merchant's fraud reviews, newest first, optionally of one status (cursor pages). */
export const listReviewsOp = defineOperation("payments.listReviews", ReviewListQuery, ReviewListResponse);

/** One review of the merchant's (another merchant's: 404 `review_not_found`). */
export const getReviewOp = defineOperation("payments.getReview", z.object({ review_id: z.string().min(1).max(64) }), Review);

/**
 * The merchant's decision on an open review (owner, admin or api-key; a viewer is refused):
 * `approve` sends the held debit (once, under the transfer's lease), `cancel` ends it. A review
 * no longer open answers 409 `review_closed`.
 */
export const decideReviewOp = defineOperation(
  "payments.decideReview",
  z.object({ review_id: z.string().min(1).max(64), decision: z.enum(["approve", "cancel"]) }),
  Review,
);

/** The evidence of the merchant's fraud-monitoring program an auditor asks for. */
export const getFraudMonitoringOp = defineOperation("payments.getFraudMonitoring", z.object({}), FraudMonitoringEvidence);

/** Records the merchant's yearly review of the program (owner, admin or api-key). */
export const addAnnualReviewOp = defineOperation("payments.addAnnualReview", AnnualReviewBody, AnnualReview);
