import { z } from "zod";

/**
 * Fraud monitoring (docs/decisions/0010-fraud-monitoring.md): a debit a risk rule flags is held
 * for the merchant's review before the transfer provider is asked for it.
 */
export const REVIEW_ID_PATTERN = /^rev_[0-9a-f]{32}$/;

export const ReviewStatus = z.enum(["open", "approved", "cancelled", "expired"]);
export type ReviewStatus = z.infer<typeof ReviewStatus>;

export const RuleHitView = z.object({
  rule: z.string().describe("The rule's id (e.g. `account_velocity`)"),
  version: z.number().int().describe("The version of the rule that fired"),
  reason: z.string().describe("Why it fired, in words"),
  facts: z.record(z.string(), z.number()).describe("The facts it judged (counts, cents, minutes)"),
  thresholds: z.record(z.string(), z.number()).describe("The thresholds it judged them by, as configured when it fired"),
});

export const ReviewActor = z.object({
  type: z.enum(["api_key", "user", "system"]).describe("`api_key`, a dashboard `user`, or `system` (the expiry sweep)"),
  id: z.string().describe("The key's prefix, the user's id, or `review_expiry`"),
});

export const Review = z.object({
  id: z.string().describe("The review (`rev_…`)"),
  object: z.literal("review").describe("Always `review`"),
  checkout_id: z.string().describe("The checkout (`chk_…`) whose debit is held"),
  transaction_uuid: z.string().describe("The held debit's transaction record (`transaction_status: in_review` while open)"),
  kind: z.enum(["first_charge", "renewal"]).describe("The checkout's first debit, or a subscription's renewal"),
  amount: z.number().describe("The held debit's amount, in major units"),
  currency: z.string().describe("ISO 4217 currency code"),
  status: ReviewStatus.describe("`open` (held), `approved` (the debit was sent), `cancelled` by the merchant, or `expired` (cancelled after REVIEW_EXPIRES_HOURS)"),
  rules: z.array(RuleHitView).describe("The rules that fired, with their facts"),
  opened_at: z.string().describe("When the debit was held (ISO 8601 UTC)"),
  expires_at: z.string().describe("When an open review is cancelled unless decided (ISO 8601 UTC)"),
  closed_at: z.string().nullable().describe("When it was approved, cancelled or expired (ISO 8601 UTC), or null"),
  closed_by: ReviewActor.nullable().describe("Who closed it, or null while open"),
});
export type Review = z.infer<typeof Review>;

export const ReviewIdParam = z.object({ id: z.string().min(1).max(64) });

export const ReviewListQuery = z.object({
  status: ReviewStatus.optional().describe("Only reviews in this status"),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("At most this many (1–100, default 20)"),
  starting_after: z.string().regex(REVIEW_ID_PATTERN, "must be a review id").optional().describe("The last review of the previous page: the next page starts after it"),
});
export type ReviewListQuery = z.infer<typeof ReviewListQuery>;
export const ReviewListResponse = z.object({
  data: z.array(Review).describe("Reviews, newest first"),
  has_more: z.boolean().describe("Whether another page follows"),
});

export const AnnualReviewBody = z.object({
  notes: z.string().trim().min(1).max(10_000).describe("What the yearly review of the fraud-monitoring rules found and decided"),
});
export const AnnualReview = z.object({
  id: z.string().describe("The record (`arv_…`)"),
  notes: z.string().describe("What the review found and decided"),
  reviewed_at: z.string().describe("When it was recorded (ISO 8601 UTC)"),
  reviewed_by: ReviewActor.describe("Who recorded it"),
});
export type AnnualReview = z.infer<typeof AnnualReview>;

export const RuleInForce = z.object({
  id: z.string().describe("The rule's id"),
  version: z.number().int().describe("Its version"),
  version_since: z.string().describe("When that version took effect (YYYY-MM-DD)"),
  description: z.string().describe("What it looks at"),
  thresholds: z.record(z.string(), z.number()).describe("Its settings (FRAUD_* configuration) and their values"),
});

export const RuleSetView = z.object({
  id: z.string().describe("The rule set (`frs_…`): the rules' versions with their thresholds"),
  since: z.string().describe("When Payrail first screened with it (ISO 8601 UTC)"),
  until: z.string().nullable().describe("When the next rule set replaced it, or null: in force"),
  review_expires_hours: z.number().describe("How long a held debit waited for a decision"),
  rules: z.array(RuleInForce).describe("Its rules"),
});

export const MonthlyReturnRate = z.object({
  month: z.string().describe("The calendar month (YYYY-MM, UTC)"),
  debits: z.number().int().describe("Debits made in the month"),
  returns: z.number().int().describe("ACH returns learnt in the month"),
  unauthorized_returns: z.number().int().describe("Of which unauthorized (R05, R07, R10, R11, R29)"),
  rate: z.number().describe("returns / debits (0 with no debit)"),
});

export const FraudMonitoringEvidence = z.object({
  object: z.literal("fraud_monitoring").describe("Always `fraud_monitoring`"),
  generated_at: z.string().describe("When this evidence was read (ISO 8601 UTC)"),
  rules_in_force: RuleSetView.describe("The rule set screening debits now"),
  rule_sets: z.array(RuleSetView).describe("Every rule set in force since screening began, oldest first"),
  reviews: z.array(Review).describe("Every review of the merchant's debits, newest first (at most 10,000)"),
  reviews_truncated: z.boolean().describe("Whether older reviews exist beyond those listed (page through GET /api/merchants/reviews)"),
  return_rates: z.array(MonthlyReturnRate).describe("Return rates of the last 12 calendar months, oldest first"),
  annual_reviews: z.array(AnnualReview).describe("The yearly reviews of the program, oldest first"),
});
export type FraudMonitoringEvidence = z.infer<typeof FraudMonitoringEvidence>;
