import type { LeaseHeartbeat } from "@payrail/runtime";
import { applyChargeOutcome } from "../renewals/follow-subscription-charge.ts";
import type { RenewalDeps } from "../renewals/renewal.deps.ts";
import { renewalRecordDoc } from "../renewals/renewal-record.ts";
import type { ReviewRecord } from "./review.entity.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";
import { cancelHeldRecord, held } from "./held-transaction.ts";
import { reviewOfDebit } from "./open-review.ts";

/** A held renewal is looked at again this long after its review's time, if the sweep has not closed it by then. */
const RECHECK_AFTER_EXPIRY_MS = 60_000;

/**
 * Under the renewal lease, right before a renewal charge goes to the provider: "send" when no
 * rule fires or the merchant approved it. A flagged charge opens its review, gets its record
 * `in_review`, and is parked (the charge kept, unsent; the lease given back; due again only
 * after its review's time): "held". A decision makes it due at once (dueAfterReview), so the
 * next charger comes back here: approved, it is sent; cancelled or expired, its record is
 * cancelled and the subscription ends as for a transfer the provider refused: "stopped".
 */
export async function renewalReviewGate(
  deps: RenewalDeps,
  a: TransferAttemptRecord,
  leaseId: string,
  lease: Pick<LeaseHeartbeat, "check">,
  save: (set: Record<string, unknown>) => Promise<void>,
  /** True when the provider already has this try's debit (a resumed try): it is sent, never held. */
  madeBefore?: () => Promise<boolean>,
): Promise<"send" | "held" | "stopped"> {
  const charge = a.charge!;
  // Screened at what this try charges (a merchant's new amount from its period on).
  const review = await reviewOfDebit(deps, { ...a, amountCents: charge.amountCents ?? a.amountCents }, { transactionUuid: charge.transactionUuid, kind: "renewal", madeBefore });
  if (!review) return "send";
  lease.check();
  const heldRecord = async () => (await deps.transactions.insertHeld(held(renewalRecordDoc(a, await deps.transactions.nextId(), charge, ""), review))).doc;
  if (review.status === "approved") {
    // Approved after the consumer cancelled the subscription: the charge is dropped unsent (sendCharge), its record with it.
    if (a.subscriptionCancelledAt) await cancelHeldRecord(deps, { ...review, status: "cancelled" }, heldRecord);
    return "send";
  }
  if (review.status === "open") {
    if (!(await deps.transactions.findByUuid(charge.transactionUuid))) await heldRecord();
    const recheckAt = new Date(Math.max(Date.parse(review.expiresAt), deps.now().getTime()) + RECHECK_AFTER_EXPIRY_MS).toISOString();
    await save({ "charge.reviewId": review._id, nextChargeAt: recheckAt, renewalLeaseId: null, renewalLeaseUntil: null });
    return "held";
  }
  await cancelHeldRecord(deps, review as ReviewRecord & { status: "cancelled" | "expired" }, heldRecord);
  // Like a transfer refused for good: no retry; the subscription ends (RENEWAL_FINAL_STATUS).
  await applyChargeOutcome(deps, a._id, charge.transactionUuid, { completed: false, error: null, at: charge.at, refused: true });
  await deps.schedules.finishCharge(a._id, leaseId, charge.transactionUuid);
  deps.logger.info({ checkoutId: a._id, transactionUuid: charge.transactionUuid, reviewId: review._id, outcome: review.status }, "renewal not sent: its review was not approved");
  return "stopped";
}
