import type { RefundPayoutSnapshot } from "@payrail/contracts";
import type { RequestMeta } from "./ports/payments.port.ts";
import type { RefundDoc } from "./refund.entity.ts";
import type { RefundsDeps } from "./refunds.deps.ts";
import { settleRefund } from "./settle-refund.ts";

/**
 * A refund payout's outcome as payments settled it (its refund_payout.settled event, or the
 * answer to a sandbox simulation): the refund moves as settleRefund says, once.
 */
export function applyPayoutOutcome(deps: RefundsDeps, meta: RequestMeta, payout: RefundPayoutSnapshot): Promise<RefundDoc> {
  return settleRefund(deps, meta, {
    refundId: payout.refund_id,
    attempt: payout.attempt,
    transferId: payout.transfer_id,
    status: payout.status,
    failureCode: payout.failure_code,
    failureReason: payout.failure_reason,
  });
}
