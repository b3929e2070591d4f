import type { RefundPayoutSnapshot } from "@payrail/contracts";
import type { RefundsDeps } from "./refunds.deps.ts";

/**
 * Why a payout outcome's figures cannot be this refund's, or undefined when they can. They come
 * from another service, so what the refunds service knows is held against them:
 *
 * - a payout pays back exactly its refund's amount (payments creates it for that amount), on
 *   the refund's own transaction;
 * - the transaction's `amount_refunded_cents` never exceeds what its refunds hold on the ledger:
 *   every payout that completed belongs to a refund whose hold is kept for good, and the holds
 *   never add up to more than the transaction's amount (`RefundLedger`).
 *
 * An outcome for an unknown refund is left to `settleRefund`, which answers refund_not_found;
 * a refund from before ledgers has nothing to check the transaction's figure against.
 */
export async function refusedPayoutAmounts(deps: Pick<RefundsDeps, "refunds" | "ledgers">, payout: RefundPayoutSnapshot): Promise<string | undefined> {
  const refund = await deps.refunds.find(payout.refund_id);
  if (!refund) return undefined;
  if (payout.transaction_uuid !== refund.transactionUuid) return `the refund is of transaction ${refund.transactionUuid}, not ${payout.transaction_uuid}`;
  if (payout.amount_cents !== undefined && payout.amount_cents !== refund.amountCents) {
    return `a payout of ${payout.amount_cents} cents for a refund of ${refund.amountCents}`;
  }
  const ledger = await deps.ledgers.find(refund.transactionUuid);
  if (ledger && payout.amount_refunded_cents > Math.min(ledger.reservedCents, ledger.amountCents)) {
    return `${payout.amount_refunded_cents} cents refunded of the transaction, more than its refunds hold (${ledger.reservedCents} of ${ledger.amountCents})`;
  }
  return undefined;
}
