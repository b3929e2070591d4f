import type { DomainEvent } from "@payrail/contracts";
import type { ReviewActor } from "../review.entity.ts";
import type { ruleSet } from "../fraud-rules.ts";

/** One configuration of the rules (their versions and thresholds) and when Payrail first screened with it. */
export interface RuleSetRecord {
  _id: string;
  since: string;
  reviewExpiresHours: number;
  rules: ReturnType<typeof ruleSet>;
}

export interface AnnualReviewRecord {
  _id: string;
  merchantId: string;
  notes: string;
  reviewedAt: string;
  reviewedBy: ReviewActor;
}

/** The fraud-monitoring program's own records: rule sets in force over time, and each merchant's yearly reviews. */
export interface ComplianceRecordsPort {
  /**
   * Records `current` as in force from `at` unless the latest rule set has the same rules and
   * thresholds; answers the rule set in force. Replicas starting together record it once.
   */
  recordRuleSet(current: Omit<RuleSetRecord, "_id" | "since">, at: string): Promise<RuleSetRecord>;
  /** Every rule set, oldest first. */
  ruleSets(limit: number): Promise<RuleSetRecord[]>;
  /** Stores a yearly review with its audit entry (one insert). */
  addAnnualReview(record: AnnualReviewRecord, audit?: readonly DomainEvent[]): Promise<void>;
  /** The merchant's yearly reviews, oldest first. */
  annualReviews(merchantId: string, limit: number): Promise<AnnualReviewRecord[]>;
}
