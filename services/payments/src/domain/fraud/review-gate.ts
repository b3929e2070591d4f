import { AppError } from "@payrail/contracts";
import type { LeaseHeartbeat } from "@payrail/runtime";
import type { ReviewRecord } from "./review.entity.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";
import type { TransferDeps } from "../transfers/transfer.deps.ts";
import { heldTransactionDoc } from "./held-transaction.ts";
import { reviewOfDebit } from "./open-review.ts";

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
  /** True when the provider already has this debit (a resumed call): a rule firing now holds nothing. */
  madeBefore?: () => Promise<boolean>,
): Promise<"send" | "held"> {
  const review = await reviewOfDebit(deps, a, { transactionUuid: a.transactionUuid, kind: "first_charge", madeBefore });
  if (!review || review.status === "approved") return "send";
  if (review.status !== "open") throw reviewEnded(a._id, review);
  if (!a.reviewId) {
    lease.check();
    if (!(await deps.transactions.findByUuid(a.transactionUuid))) {
      await deps.transactions.insertHeld(heldTransactionDoc(a, await deps.transactions.nextId(), review));
    }
    await saveReviewId(review._id);
  }
  return "held";
}

/** 409: the merchant cancelled the held debit, or its review expired: the checkout is over. */
export function reviewEnded(checkoutId: string, review: Pick<ReviewRecord, "_id" | "status">): AppError {
  return new AppError("checkout_closed", `the debit of checkout ${checkoutId} was ${review.status === "expired" ? "cancelled when its review expired" : "cancelled in review"} (${review._id})`, {
    param: "checkout_id",
  });
}
