import { recordRefundTransferStatusOp, type RefundRecord } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { RequestMeta } from "../domain/ports/checkouts.port.ts";
import type { RefundsPort } from "../domain/ports/refunds.port.ts";

/** The refunds service over RPC, asked on payments' own account (an internal operation). */
export class RefundsServiceClient implements RefundsPort {
  constructor(private readonly transport: Transport) {}

  recordTransferStatus(
    meta: RequestMeta,
    input: { refundId: string; transferId: string; status: "completed" | "failed"; failureCode?: string },
  ): Promise<RefundRecord> {
    return this.transport.call(
      recordRefundTransferStatusOp,
      {
        refund_id: input.refundId,
        transfer_id: input.transferId,
        status: input.status,
        ...(input.failureCode ? { failure_code: input.failureCode } : {}),
      },
      { requestId: meta.requestId, principal: { kind: "service", service: "payments" } },
    );
  }
}
