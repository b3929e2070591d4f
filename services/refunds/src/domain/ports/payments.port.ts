import type { AuditOrigin, Principal, RefundableTransaction, RefundPayoutSnapshot } from "@payrail/contracts";

/** The request refunds serves: its id travels on; refunds asks payments on its own account. */
export interface RequestMeta {
  requestId: string;
  principal: Principal;
  /** The client address the gateway sent with the request: the audit log's. */
  clientIp?: string | undefined;
}

/** What refunds needs from payments, which owns transactions and moves money. */
export interface PaymentsPort {
  /** Any transaction (AppError `transaction_not_found` for an unknown one): refunds checks whose it is. */
  getTransaction(meta: RequestMeta, transactionUuid: string): Promise<RefundableTransaction>;
  /**
   * Starts payout `attempt` of the refund (a transfer merchant → consumer) or, when it was
   * started already, answers the same transfer: idempotent per refund and attempt, concurrent
   * calls included. A provider that refused the transfer for good answers `failed` (the next
   * attempt may then start). AppError `transaction_not_settled` (409) before the transaction
   * completed, `provider_error` (502) when the provider failed otherwise (retrying is safe).
   */
  startRefundTransfer(
    meta: RequestMeta,
    input: { refundId: string; attempt: number; transactionUuid: string; amountCents: number; currency: string },
  ): Promise<StartedPayout>;
  /**
   * Sandbox only, for merchant `merchant_id`: moves the refund payout with this transfer id to
   * completed or failed and answers its outcome; AppError `transaction_not_found` when it is
   * not one of this merchant's payouts. `audit` (the merchant's actor and address) is what the
   * move's audit entry names.
   */
  simulateRefundPayout(
    meta: RequestMeta,
    input: { merchant_id: string; transfer_id: string; status: "completed" | "failed"; failure_code?: string; audit?: AuditOrigin },
  ): Promise<RefundPayoutSnapshot>;
}

/** A payout as payments started it: its transfer, or the provider's refusal. */
export type StartedPayout = { status: "pending"; transferId: string } | { status: "failed"; failureCode: string; failureReason: string };
