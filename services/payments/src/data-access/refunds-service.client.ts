import { recordRefundTransferStatusOp, type RefundRecord } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { RequestMeta } from "../domain/ports/checkouts.port.ts";
import type { PayoutOutcome, RefundsPort } from "../domain/ports/refunds.port.ts";

/** The refunds service over RPC, asked on payments' own account (an internal operation). */
export class RefundsServiceClient implements RefundsPort {
  constructor(private readonly transport: Transport) {}

  recordTransferStatus(meta: RequestMeta, outcome: PayoutOutcome): Promise<RefundRecord> {
    return this.transport.call(
      recordRefundTransferStatusOp,
      {
        refund_id: outcome.refundId,
        attempt: outcome.attempt,
        transfer_id: outcome.transferId,
        status: outcome.status,
        ...(outcome.failureCode ? { failure_code: outcome.failureCode } : {}),
        ...(outcome.failureReason ? { failure_reason: outcome.failureReason.slice(0, 500) } : {}),
      },
      { requestId: meta.requestId, principal: { kind: "service", service: "payments" } },
    );
  }
}
