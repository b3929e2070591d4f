import {
  cancelSubscriptionOp,
  getCheckoutSummaryOp,
  markPaymentMethodSavedOp,
  recordRefundOp,
  recordTransferOp,
  recordTransferStatusOp,
  verifyLinkTokenOp,
  type CheckoutSummary,
  type TransferSummary,
} from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { CheckoutsPort, RequestMeta } from "../domain/ports/checkouts.port.ts";

/** Internal operations are asked on payments' own account, after payments' own checks. */
const asPayments = (meta: RequestMeta) => ({
  requestId: meta.requestId,
  principal: { kind: "service" as const, service: "payments" },
});

/**
 * The checkout service over RPC: payments never reads its collections. The caller's request id
 * and principal travel on, and the checkout service's business errors (401/403/404/409) come
 * back as they are.
 */
export class CheckoutServiceClient implements CheckoutsPort {
  constructor(private readonly transport: Transport) {}

  verifyLinkToken(meta: RequestMeta, checkoutId: string, linkToken: string): Promise<CheckoutSummary> {
    return this.transport.call(verifyLinkTokenOp, { checkout_id: checkoutId, link_token: linkToken }, meta);
  }

  async markPaymentMethodSaved(meta: RequestMeta, checkoutId: string): Promise<void> {
    await this.transport.call(markPaymentMethodSavedOp, { checkout_id: checkoutId }, asPayments(meta));
  }

  getSummary(meta: RequestMeta, checkoutId: string): Promise<CheckoutSummary> {
    // Asked as the merchant itself, so the checkout service enforces the tenant boundary.
    return this.transport.call(getCheckoutSummaryOp, { checkout_id: checkoutId }, meta);
  }

  async recordTransfer(meta: RequestMeta, checkoutId: string, transfer: TransferSummary): Promise<void> {
    await this.transport.call(recordTransferOp, { checkout_id: checkoutId, transfer }, asPayments(meta));
  }

  async recordTransferStatus(
    meta: RequestMeta,
    checkoutId: string,
    transactionUuid: string,
    status: "completed" | "failed" | "cancelled",
  ): Promise<void> {
    await this.transport.call(
      recordTransferStatusOp,
      { checkout_id: checkoutId, transaction_uuid: transactionUuid, status },
      asPayments(meta),
    );
  }

  async recordRefund(
    meta: RequestMeta,
    checkoutId: string,
    input: { transactionUuid: string; amountRefundedCents: number; fullyRefunded: boolean },
  ): Promise<void> {
    await this.transport.call(
      recordRefundOp,
      {
        checkout_id: checkoutId,
        transaction_uuid: input.transactionUuid,
        amount_refunded_cents: input.amountRefundedCents,
        fully_refunded: input.fullyRefunded,
      },
      asPayments(meta),
    );
  }

  async cancelSubscription(meta: RequestMeta, checkoutId: string): Promise<void> {
    await this.transport.call(cancelSubscriptionOp, { checkout_id: checkoutId }, asPayments(meta));
  }
}
