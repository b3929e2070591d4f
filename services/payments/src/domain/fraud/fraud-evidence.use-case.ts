import { requireMerchant, requireMerchantWriter, type AnnualReview, type FraudMonitoringEvidence, type Principal } from "@payrail/contracts";
import { auditEvents, prefixedHexId, type AuditMeta } from "@payrail/runtime";
import type { PaymentEventsDeps } from "../shared/payment-events.ts";
import type { AnnualReviewRecord, ComplianceRecordsPort, RuleSetRecord } from "./ports/compliance-records.port.ts";
import type { ReviewsPort } from "./ports/reviews.port.ts";
import type { TransactionsPort } from "../transactions/ports/transactions.port.ts";
import { toReview } from "./review.entity.ts";

export interface EvidenceDeps {
  reviews: ReviewsPort;
  compliance: ComplianceRecordsPort;
  transactions: TransactionsPort;
  now(): Date;
}

const REVIEWS_LISTED = 10_000;
const MONTHS = 12;

/**
 * What an auditor (the ODFI, the transfer provider) asks of a merchant's fraud monitoring: the
 * rule sets in force and since when, every review and its outcome, return rates per month, and
 * the yearly reviews of the program. Reads indexes only (36 counts and two bounded lists).
 */
export async function getFraudMonitoring(deps: EvidenceDeps, principal: Principal): Promise<FraudMonitoringEvidence> {
  const { merchantId } = requireMerchant(principal);
  const now = deps.now();
  const [sets, reviews, annual, rates] = await Promise.all([
    deps.compliance.ruleSets(1_000),
    deps.reviews.list(merchantId, REVIEWS_LISTED + 1),
    deps.compliance.annualReviews(merchantId, 1_000),
    monthlyReturnRates(deps, merchantId, now),
  ]);
  const views = sets.map((s, i) => ruleSetView(s, sets[i + 1]?.since ?? null));
  return {
    object: "fraud_monitoring",
    generated_at: now.toISOString(),
    rules_in_force: views[views.length - 1]!,
    rule_sets: views,
    reviews: reviews.slice(0, REVIEWS_LISTED).map(toReview),
    reviews_truncated: reviews.length > REVIEWS_LISTED,
    return_rates: rates,
    annual_reviews: annual.map(toAnnualReview),
  };
}

/** Records the merchant's yearly review of its fraud-monitoring program (not by a viewer), with its audit entry in the same insert. */
export async function recordAnnualReview(deps: Pick<EvidenceDeps, "compliance" | "now"> & PaymentEventsDeps, meta: AuditMeta, notes: string): Promise<AnnualReview> {
  const merchant = requireMerchantWriter(meta.principal);
  const record: AnnualReviewRecord = {
    _id: prefixedHexId("arv_"),
    merchantId: merchant.merchantId,
    notes,
    reviewedAt: deps.now().toISOString(),
    reviewedBy: merchant.userId ? { type: "user", id: merchant.userId } : { type: "api_key", id: merchant.keyPrefix },
  };
  const change = { service: "payments", merchantId: merchant.merchantId, action: "annual_review.recorded", object: { type: "annual_review", id: record._id }, at: record.reviewedAt, livemode: deps.livemode } as const;
  await deps.compliance.addAnnualReview(record, auditEvents(meta, change));
  deps.events.written();
  return toAnnualReview(record);
}

function ruleSetView(s: RuleSetRecord, until: string | null): FraudMonitoringEvidence["rule_sets"][number] {
  return { id: s._id, since: s.since, until, review_expires_hours: s.reviewExpiresHours, rules: s.rules };
}

function toAnnualReview(r: AnnualReviewRecord): AnnualReview {
  return { id: r._id, notes: r.notes, reviewed_at: r.reviewedAt, reviewed_by: r.reviewedBy };
}

/** The last MONTHS calendar months (UTC), oldest first: debits made, returns learnt, their rate. */
async function monthlyReturnRates(deps: Pick<EvidenceDeps, "transactions">, merchantId: string, now: Date): Promise<FraudMonitoringEvidence["return_rates"]> {
  const months = Array.from({ length: MONTHS }, (_, i) => {
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (MONTHS - 1 - i), 1));
    const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
    return { month: from.toISOString().slice(0, 7), from: from.toISOString(), to: to.toISOString() };
  });
  return Promise.all(
    months.map(async (m) => {
      const [debits, returns, unauthorized] = await Promise.all([
        deps.transactions.countDebitsBetween(merchantId, m.from, m.to),
        deps.transactions.countReturnsBetween(merchantId, m.from, m.to),
        deps.transactions.countReturnsBetween(merchantId, m.from, m.to, "unauthorized"),
      ]);
      return { month: m.month, debits, returns, unauthorized_returns: unauthorized, rate: debits === 0 ? 0 : returns / debits };
    }),
  );
}
