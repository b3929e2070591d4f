import type { RefundRecord } from "@payrail/contracts";
import type { RequestMeta } from "./ports/payments.port.ts";
import { toRefundRecord } from "./refund.entity.ts";
import type { RefundsDeps } from "./refunds.deps.ts";
import { settleRefund } from "./settle-refund.ts";

/** Payments reports a refund payout's final status at the provider (see settleRefund). */
export async function recordRefundTransferStatus(
  deps: RefundsDeps,
  meta: RequestMeta,
  input: {
    refund_id: string;
    attempt: number;
    transfer_id: string;
    status: "completed" | "failed";
    failure_code?: string | undefined;
    failure_reason?: string | undefined;
  },
): Promise<RefundRecord> {
  const refund = await settleRefund(deps, meta, {
    refundId: input.refund_id,
    attempt: input.attempt,
    transferId: input.transfer_id,
    status: input.status,
    failureCode: input.failure_code,
    failureReason: input.failure_reason,
  });
  return toRefundRecord(refund);
}
