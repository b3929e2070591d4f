import type { CheckoutSummary, Principal } from "@payrail/contracts";
import type { TransferSummary } from "@payrail/contracts";

/** The request on whose behalf payments asks: its id and caller travel on to the checkout service. */
export interface RequestMeta {
  requestId: string;
  principal: Principal;
}

/** What payments needs from the checkout service, which owns checkouts and merchant link tokens. */
export interface CheckoutsPort {
  /**
   * The checkout, if `linkToken` is a valid merchant link token of it: else AppError
   * `link_token_invalid` / `link_token_expired` (401) or `link_token_mismatch` (403).
   */
  verifyLinkToken(meta: RequestMeta, checkoutId: string, linkToken: string): Promise<CheckoutSummary>;
  /** Moves the checkout to `payment_method_saved`; 409 `checkout_closed` once a transfer started. */
  markPaymentMethodSaved(meta: RequestMeta, checkoutId: string): Promise<void>;
  /** The checkout, to its own merchant (404 otherwise). */
  getSummary(meta: RequestMeta, checkoutId: string): Promise<CheckoutSummary>;
  /** The checkout's transfer started (idempotent for the same transaction_uuid). */
  recordTransfer(meta: RequestMeta, checkoutId: string, transfer: TransferSummary): Promise<void>;
  /** The transfer reached a final status (no-op when the checkout is final already). */
  recordTransferStatus(meta: RequestMeta, checkoutId: string, transactionUuid: string, status: "completed" | "failed" | "cancelled"): Promise<void>;
  /**
   * Refunds of the checkout's transaction sent `amountRefundedCents` back in all (idempotent;
   * the checkout keeps the largest figure, and becomes `refunded` once its payment is fully refunded).
   */
  recordRefund(meta: RequestMeta, checkoutId: string, input: { transactionUuid: string; amountRefundedCents: number; fullyRefunded: boolean }): Promise<void>;
  /** The subscription is cancelled (idempotent). */
  cancelSubscription(meta: RequestMeta, checkoutId: string): Promise<void>;
}
