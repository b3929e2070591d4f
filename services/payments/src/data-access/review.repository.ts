import type { DomainEvent, ReviewStatus } from "@payrail/contracts";
import { insertOrGet, insertWithEvents, withEvents, type Filter, type Store } from "@payrail/store";
import type { ReviewsPort } from "../domain/fraud/ports/reviews.port.ts";
import type { ReviewActor, ReviewRecord } from "../domain/fraud/review.entity.ts";

export const REVIEWS_COLLECTION = "fraud_reviews";

/** Fraud reviews (`_id` = `rev_…`); their review.* events travel in their outbox. */
export class ReviewRepository implements ReviewsPort {
  constructor(private readonly store: Store) {}

  private get reviews() {
    return this.store.collection<ReviewRecord>(REVIEWS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    // The merchant's list (all, or of one status), newest first, and the evidence.
    await this.reviews.createIndex({ keys: { merchantId: 1, sortKey: -1 }, name: "merchant_newest" });
    await this.reviews.createIndex({ keys: { merchantId: 1, status: 1, sortKey: -1 }, name: "merchant_status_newest" });
    // The sweep: open reviews past their time, and decisions a crash left unapplied.
    await this.reviews.createIndex({ keys: { status: 1, expiresAt: 1 }, name: "status_expires" });
    await this.reviews.createIndex({ keys: { applied: 1, closedAt: 1 }, name: "unapplied" });
  }

  async open(doc: ReviewRecord, event: DomainEvent): Promise<ReviewRecord> {
    return (await insertOrGet(this.reviews, insertWithEvents(doc, [event]))).doc;
  }

  find(reviewId: string): Promise<ReviewRecord | null> {
    return this.reviews.findOne({ _id: reviewId });
  }

  close(reviewId: string, change: { status: Exclude<ReviewStatus, "open">; at: string; by: ReviewActor }, event: DomainEvent, audit: readonly DomainEvent[] = []): Promise<ReviewRecord | null> {
    // A merchant decides before the review's time runs out; the sweep expires it only after.
    const time = change.status === "expired" ? { $lte: change.at } : { $gt: change.at };
    return this.reviews.findOneAndUpdate(
      { _id: reviewId, status: "open", expiresAt: time },
      withEvents({ $set: { status: change.status, closedAt: change.at, closedBy: change.by, applied: false }, $inc: { version: 1 } }, [event, ...audit]),
    );
  }

  async markApplied(reviewId: string): Promise<void> {
    await this.reviews.findOneAndUpdate({ _id: reviewId, applied: false }, { $set: { applied: true } });
  }

  list(merchantId: string, limit: number, status?: ReviewStatus, beforeKey?: string): Promise<ReviewRecord[]> {
    const filter: Filter = { merchantId, ...(status ? { status } : {}), ...(beforeKey ? { sortKey: { $lt: beforeKey } } : {}) };
    return this.reviews.find(filter, { sort: { sortKey: -1 }, limit });
  }

  expired(now: string, limit: number): Promise<ReviewRecord[]> {
    return this.reviews.find({ status: "open", expiresAt: { $lte: now } }, { sort: { expiresAt: 1 }, limit });
  }

  unapplied(before: string, limit: number): Promise<ReviewRecord[]> {
    return this.reviews.find({ applied: false, closedAt: { $lt: before } }, { sort: { closedAt: 1 }, limit });
  }
}
