import { getTransactionForRefundOp, onOwnAccount, simulateRefundPayoutOp, startRefundTransferOp, type AuditOrigin, type RefundableTransaction, type RefundPayoutSnapshot } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { PaymentsPort, RequestMeta, StartedPayout } from "../domain/ports/payments.port.ts";

/**
 * Payments over RPC: refunds never reads its collections. Every call is on refunds' own account,
 * after refunds' own checks (the broker accepts nothing else from refunds' users, `SERVICE_CALLS`).
 * Business errors come back as they are.
 */
export class PaymentsServiceClient implements PaymentsPort {
  constructor(private readonly transport: Transport) {}

  getTransaction(meta: RequestMeta, transactionUuid: string): Promise<RefundableTransaction> {
    return this.transport.call(getTransactionForRefundOp, { transaction_uuid: transactionUuid }, onOwnAccount("refunds", meta));
  }

  async startRefundTransfer(
    meta: RequestMeta,
    input: { refundId: string; attempt: number; transactionUuid: string; amountCents: number; currency: string },
  ): Promise<StartedPayout> {
    const out = await this.transport.call(
      startRefundTransferOp,
      {
        refund_id: input.refundId,
        attempt: input.attempt,
        transaction_uuid: input.transactionUuid,
        amount_cents: input.amountCents,
        currency: input.currency,
      },
      onOwnAccount("refunds", meta),
    );
    return out.status === "pending"
      ? { status: "pending", transferId: out.transfer_id }
      : { status: "failed", failureCode: out.failure_code, failureReason: out.failure_reason };
  }

  simulateRefundPayout(
    meta: RequestMeta,
    input: { merchant_id: string; transfer_id: string; status: "completed" | "failed"; failure_code?: string; audit?: AuditOrigin },
  ): Promise<RefundPayoutSnapshot> {
    return this.transport.call(simulateRefundPayoutOp, input, onOwnAccount("refunds", meta));
  }
}
