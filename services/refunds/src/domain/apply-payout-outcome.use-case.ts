import type { RefundPayoutSnapshot } from "@payrail/contracts";
import type { RequestMeta } from "./ports/payments.port.ts";
import type { RefundDoc } from "./refund.entity.ts";
import type { RefundsDeps } from "./refunds.deps.ts";
import { refusedPayoutAmounts } from "./refused-payout-amounts.ts";
import { settleRefund } from "./settle-refund.ts";

/**
 * A refund payout's outcome as payments settled it (its refund_payout.settled event, or the
 * answer to a sandbox simulation): the refund moves as settleRefund says, once. Figures that
 * cannot be the refund's (`refusedPayoutAmounts`) move nothing: the outcome is refused with an
 * error (an event is then retried and dead-lettered), logged without the snapshot.
 */
export async function applyPayoutOutcome(deps: RefundsDeps, meta: RequestMeta, payout: RefundPayoutSnapshot): Promise<RefundDoc> {
  const refused = await refusedPayoutAmounts(deps, payout);
  if (refused) {
    deps.logger.warn({ requestId: meta.requestId, refundId: payout.refund_id, attempt: payout.attempt, reason: refused }, "refund payout outcome refused");
    throw new PayoutOutcomeRefused(`refund payout outcome for ${payout.refund_id} refused: ${refused}`);
  }
  return settleRefund(deps, meta, {
    refundId: payout.refund_id,
    attempt: payout.attempt,
    transferId: payout.transfer_id,
    status: payout.status,
    failureCode: payout.failure_code,
    failureReason: payout.failure_reason,
  });
}

/** A payout outcome that can never be its refund's: no retry can make it apply. */
export class PayoutOutcomeRefused extends Error {
  override readonly name = "PayoutOutcomeRefused";
}
