import { chargeRenewal } from "../renewals/charge-renewal.use-case.ts";
import { runFirstCharge } from "../transfers/get-processor-token.use-case.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { RenewalDeps } from "../renewals/renewal.deps.ts";
import type { ReviewRecord } from "./review.entity.ts";
import type { TransferDeps } from "../transfers/transfer.deps.ts";
import { cancelHeldRecord, heldTransactionDoc } from "./held-transaction.ts";

export type ReviewOutcomeDeps = TransferDeps & RenewalDeps;

/**
 * Brings a closed review's outcome to its debit, then marks it applied. A first charge:
 * approved, it is sent (runFirstCharge: the transfer lease, the mandate, the steps: one
 * transfer however many calls race, the provider's idempotency key behind it); cancelled or
 * expired, its held record becomes `cancelled` with transaction.failed (the checkout ends
 * `failed`, its transfer `cancelled`). A renewal: its parked charge falls due now and a charger
 * applies the outcome under the renewal lease (renewal-review-gate.ts). Idempotent: the
 * decision's call runs it, and the review sweep again for any review a crash left unapplied.
 */
export async function applyReviewOutcome(deps: ReviewOutcomeDeps, meta: RequestMeta, review: ReviewRecord): Promise<void> {
  if (review.status === "open") return;
  if (review.kind === "renewal") {
    const now = deps.now().toISOString();
    if (await deps.schedules.dueAfterReview(review.checkoutId, review._id, now)) await chargeRenewal(deps, review.checkoutId, now);
    // Applied once the subscription's charge no longer waits on this review.
    if ((await deps.attempts.find(review.checkoutId))?.charge?.reviewId === review._id) return;
  } else if (review.status === "approved") {
    if (!(await runFirstCharge(deps, meta, review.checkoutId)).transferId) return;
  } else {
    const held = review as ReviewRecord & { status: "cancelled" | "expired" };
    await cancelHeldRecord(deps, held, async () => {
      // The hold stopped before its record was written: write it now, held, then cancel it as any other.
      const attempt = await deps.attempts.find(review.checkoutId);
      return attempt ? (await deps.transactions.insertHeld(heldTransactionDoc(attempt, await deps.transactions.nextId(), review))).doc : null;
    });
  }
  await deps.reviews.markApplied(review._id);
}
