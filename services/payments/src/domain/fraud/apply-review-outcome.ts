import type { RequestMeta } from "../ports/checkouts.port.ts";
import { transactionEvent } from "../payment-events.ts";
import type { ReviewRecord } from "../review.entity.ts";
import type { TransactionDoc } from "../transaction.entity.ts";
import type { TransferDeps } from "../transfer.deps.ts";
import { runFirstCharge } from "../get-processor-token.use-case.ts";
import { heldTransactionDoc } from "./held-transaction.ts";

const FAILURE = {
  cancelled: { code: "review_cancelled", reason: "The merchant cancelled the debit after a fraud review; no money moved." },
  expired: { code: "review_expired", reason: "The debit was held for a fraud review and cancelled when nobody decided in time; no money moved." },
} as const;

/**
 * Brings a closed review's outcome to its debit, then marks it applied: an approval sends the
 * held first debit (runFirstCharge: the transfer lease, the mandate, the steps: one transfer
 * however many calls race, the provider's idempotency key behind it); a cancel or expiry moves
 * the held record to `cancelled` with transaction.failed (the checkout ends `failed`, its
 * transfer `cancelled`). Idempotent: the decision's call runs it, and the sweep again for any
 * review a crash left unapplied.
 */
export async function applyReviewOutcome(deps: TransferDeps, meta: RequestMeta, review: ReviewRecord): Promise<void> {
  if (review.status === "approved") {
    const attempt = await runFirstCharge(deps, meta, review.checkoutId);
    if (!attempt.transferId) return;
  } else if (review.status === "cancelled" || review.status === "expired") {
    await cancelHeldRecord(deps, review, FAILURE[review.status]);
  } else {
    return;
  }
  await deps.reviews.markApplied(review._id);
}

async function cancelHeldRecord(deps: TransferDeps, review: ReviewRecord, failure: { code: string; reason: string }): Promise<void> {
  const at = review.closedAt!;
  const change = { transaction_status: "cancelled" as const, error: failure.code, failure_code: failure.code, failure_reason: failure.reason, updated_at: at };
  let held = await deps.transactions.findByUuid(review.transactionUuid);
  if (!held) {
    // The hold stopped before its record was written: write it now, held, then cancel it as any other.
    const attempt = await deps.attempts.find(review.checkoutId);
    if (!attempt) return;
    held = (await deps.transactions.insertHeld(heldTransactionDoc(attempt, await deps.transactions.nextId(), review))).doc;
  }
  if (held.transaction_status !== "in_review") return;
  const after: TransactionDoc = { ...held, ...change, version: (held.version ?? 1) + 1 };
  if (await deps.transactions.release(held._id, held.version, change, transactionEvent(after, deps.livemode))) deps.events.written();
}
