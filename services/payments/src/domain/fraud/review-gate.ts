import { AppError } from "@payrail/contracts";
import { runScopedHexId, type LeaseHeartbeat } from "@payrail/runtime";
import { reviewEvent, type ReviewRecord } from "../review.entity.ts";
import type { TransferAttemptRecord } from "../transfer-attempt.entity.ts";
import type { TransferDeps } from "../transfer.deps.ts";
import { heldTransactionDoc } from "./held-transaction.ts";
import { screenDebit } from "./screen-debit.ts";

/** The review of a debit: derived from its transaction_uuid, so a resumed hold finds the one it opened. */
export function reviewIdFor(transactionUuid: string): string {
  return runScopedHexId("rev_", `review:${transactionUuid}`);
}

/**
 * Under the transfer lease, right before the provider is asked for the first debit: "send" when
 * no rule fires (or the merchant approved the held debit), "held" when it waits for the
 * merchant. A flagged debit opens its review (with review.opened), gets its transaction record
 * `in_review`, and the attempt names the review, each write idempotent, so a call resumed
 * after a crash completes the hold instead of screening anew. A cancelled or expired review
 * refuses the debit for good.
 */
export async function reviewGate(
  deps: TransferDeps,
  a: TransferAttemptRecord,
  lease: Pick<LeaseHeartbeat, "check">,
  saveReviewId: (reviewId: string) => Promise<void>,
): Promise<"send" | "held"> {
  const reviewId = reviewIdFor(a.transactionUuid);
  let review = await deps.reviews.find(reviewId);
  if (!review) {
    const method = await deps.paymentMethods.findByCheckout(a._id);
    const debit = {
      merchantId: a.merchantId,
      userId: a.userId,
      userPhone: a.userPhone,
      fingerprint: a.fundingFingerprint ?? null,
      amountCents: a.amountCents,
      linkedAt: method?.updatedAt ?? a.createdAt,
    };
    const { hits } = await screenDebit(deps, debit);
    if (hits.length === 0) return "send";
    lease.check();
    const at = deps.now().toISOString();
    const doc: ReviewRecord = {
      _id: reviewId,
      merchantId: a.merchantId,
      checkoutId: a._id,
      transactionUuid: a.transactionUuid,
      kind: "first_charge",
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
    review = await deps.reviews.open(doc, reviewEvent("review.opened", doc, deps.livemode));
    deps.events.written();
    deps.logger.info({ checkoutId: a._id, reviewId, rules: hits.map((h) => h.rule) }, "first debit held for review");
  }
  if (review.status === "approved") return "send";
  if (review.status !== "open") throw reviewEnded(a._id, review);
  if (!a.reviewId) {
    lease.check();
    if (!(await deps.transactions.findByUuid(a.transactionUuid))) {
      await deps.transactions.insertHeld(heldTransactionDoc(a, await deps.transactions.nextId(), review));
    }
    await saveReviewId(reviewId);
  }
  return "held";
}

/** 409: the merchant cancelled the held debit, or its review expired: the checkout is over. */
export function reviewEnded(checkoutId: string, review: Pick<ReviewRecord, "_id" | "status">): AppError {
  return new AppError("checkout_closed", `the debit of checkout ${checkoutId} was ${review.status === "expired" ? "cancelled when its review expired" : "cancelled in review"} (${review._id})`, {
    param: "checkout_id",
  });
}
