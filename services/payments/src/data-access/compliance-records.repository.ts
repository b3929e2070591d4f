import { createHash } from "node:crypto";
import type { DomainEvent } from "@payrail/contracts";
import { insertOrGet, insertWithEvents, type Store } from "@payrail/store";
import type { AnnualReviewRecord, ComplianceRecordsPort, RuleSetRecord } from "../domain/fraud/ports/compliance-records.port.ts";

/** The yearly reviews; their documents carry the reviews' audit entries (the outbox). */
export const ANNUAL_REVIEWS_COLLECTION = "fraud_annual_reviews";

/** `fraud_rule_sets` (global: the rules are the deployment's) and `fraud_annual_reviews` (per merchant). */
export class ComplianceRecordsRepository implements ComplianceRecordsPort {
  constructor(private readonly store: Store) {}

  private get sets() {
    return this.store.collection<RuleSetRecord>("fraud_rule_sets");
  }

  private get annual() {
    return this.store.collection<AnnualReviewRecord>(ANNUAL_REVIEWS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.sets.createIndex({ keys: { since: 1 }, name: "since" });
    await this.annual.createIndex({ keys: { merchantId: 1, reviewedAt: 1 }, name: "merchant_reviewed" });
  }

  async recordRuleSet(current: Omit<RuleSetRecord, "_id" | "since">, at: string): Promise<RuleSetRecord> {
    const latest = await this.sets.findOne({}, { sort: { since: -1 } });
    const content = JSON.stringify(current);
    if (latest && JSON.stringify({ reviewExpiresHours: latest.reviewExpiresHours, rules: latest.rules }) === content) return latest;
    // The id follows from the content and its predecessor: replicas starting together insert one.
    const _id = `frs_${createHash("sha256").update(`${latest?._id ?? ""}|${content}`).digest("hex").slice(0, 32)}`;
    return (await insertOrGet(this.sets, { _id, since: at, ...current })).doc;
  }

  ruleSets(limit: number): Promise<RuleSetRecord[]> {
    return this.sets.find({}, { sort: { since: 1 }, limit });
  }

  async addAnnualReview(record: AnnualReviewRecord, audit: readonly DomainEvent[] = []): Promise<void> {
    await this.annual.insertOne(insertWithEvents(record, audit));
  }

  annualReviews(merchantId: string, limit: number): Promise<AnnualReviewRecord[]> {
    return this.annual.find({ merchantId }, { sort: { reviewedAt: 1 }, limit });
  }
}
