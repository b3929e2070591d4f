import type { DomainEvent, ReviewStatus } from "@payrail/contracts";
import type { ReviewActor, ReviewRecord } from "../review.entity.ts";

/** Storage of fraud reviews; every change of status is one conditional write on `open`. */
export interface ReviewsPort {
  /** Inserts the review with its review.opened event, or returns the one already there (nothing written). */
  open(doc: ReviewRecord, event: DomainEvent): Promise<ReviewRecord>;
  find(reviewId: string): Promise<ReviewRecord | null>;
  /**
   * Closes an open review with its review.closed event: a decision only before `expiresAt`
   * (`now`), the expiry only after it. Null when it is no longer open (or the clock says otherwise).
   */
  close(reviewId: string, change: { status: Exclude<ReviewStatus, "open">; at: string; by: ReviewActor }, event: DomainEvent, audit?: readonly DomainEvent[]): Promise<ReviewRecord | null>;
  /** The outcome reached the debit. */
  markApplied(reviewId: string): Promise<void>;
  /** The merchant's reviews, newest first, of one status when given, those after the cursor `beforeKey` (a review's sortKey). */
  list(merchantId: string, limit: number, status?: ReviewStatus, beforeKey?: string): Promise<ReviewRecord[]>;
  /** Open reviews whose time ran out before `now`, oldest first (an index serves it). */
  expired(now: string, limit: number): Promise<ReviewRecord[]>;
  /** Closed reviews whose outcome did not reach the debit, closed before `before`, oldest first. */
  unapplied(before: string, limit: number): Promise<ReviewRecord[]>;
}
