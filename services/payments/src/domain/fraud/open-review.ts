import { runScopedHexId } from "@payrail/runtime";
import type { PaymentEventsDeps } from "../shared/payment-events.ts";
import type { ReviewsPort } from "./ports/reviews.port.ts";
import { reviewEvent, type ReviewRecord } from "./review.entity.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";
import type { Logger } from "@payrail/runtime";
import { screenDebit, type ScreeningDeps } from "./screen-debit.ts";

export interface ReviewOpeningDeps extends ScreeningDeps, PaymentEventsDeps {
  reviews: ReviewsPort;
  reviewExpiresMs: number;
  logger: Logger;
}

/** The review of a debit: derived from its transaction_uuid, so a resumed hold finds the one it opened. */
export function reviewIdFor(transactionUuid: string): string {
  return runScopedHexId("rev_", `review:${transactionUuid}`);
}

/** The rules run on an attempt's debit: its facts, and when its bank account was linked (its payment method). */
export async function screenAttempt(deps: ScreeningDeps, a: TransferAttemptRecord): ReturnType<typeof screenDebit> {
  const method = await deps.paymentMethods.findByCheckout(a._id);
  return screenDebit(deps, {
    merchantId: a.merchantId,
    userId: a.userId,
    userPhone: a.userPhone,
    fingerprint: a.fundingFingerprint ?? null,
    amountCents: a.amountCents,
    linkedAt: method?.updatedAt ?? a.createdAt,
  });
}

/**
 * The debit's review: the one already opened (a resumed call), else the rules run on the
 * debit's facts and, when one fires, the review is opened with review.opened (one insert that
 * a racing call's finds). Null when no rule fires, or the debit was made already: it goes ahead.
 */
export async function reviewOfDebit(
  deps: ReviewOpeningDeps,
  a: TransferAttemptRecord,
  /** `madeBefore`: asked once a rule fires, true when the provider already has this debit (nothing is held then). */
  debit: { transactionUuid: string; kind: ReviewRecord["kind"]; madeBefore?: () => Promise<boolean> },
): Promise<ReviewRecord | null> {
  const reviewId = reviewIdFor(debit.transactionUuid);
  const existing = await deps.reviews.find(reviewId);
  if (existing) return existing;
  const { hits } = await screenAttempt(deps, a);
  if (hits.length === 0 || (await debit.madeBefore?.())) return null;
  const at = deps.now().toISOString();
  const doc: ReviewRecord = {
    _id: reviewId,
    merchantId: a.merchantId,
    checkoutId: a._id,
    transactionUuid: debit.transactionUuid,
    kind: debit.kind,
    amountCents: a.amountCents,
    currency: a.currency,
    status: "open",
    rules: hits,
    openedAt: at,
    expiresAt: new Date(Date.parse(at) + deps.reviewExpiresMs).toISOString(),
    closedAt: null,
    closedBy: null,
    applied: null,
    sortKey: `${at}|${reviewId}`,
    version: 1,
  };
  const review = await deps.reviews.open(doc, reviewEvent("review.opened", doc, deps.livemode));
  deps.events.written();
  deps.logger.info({ checkoutId: a._id, reviewId, kind: debit.kind, rules: hits.map((h) => h.rule) }, "debit held for review");
  return review;
}
