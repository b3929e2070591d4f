import type { TransferStatus } from "./ports/transfer.port.ts";

/**
 * The transfer that pays one refund back, merchant → consumer (`_id` is the refund id: one
 * per refund, ever). Created before the provider is asked, so a call that died after the
 * provider's answer is finished by the next one with the same idempotency key (the refund id).
 */
export interface RefundTransferRecord {
  _id: string;
  transactionUuid: string;
  /** The original transaction's merchant: only it may simulate this transfer in the sandbox. */
  merchantId: string;
  amountCents: number;
  currency: string;
  /** The provider's transfer id (the refund's `refund_transaction_id`); null until it answered. */
  transferId: string | null;
  status: TransferStatus;
  failureCode: string | null;
  createdAt: string;
  updatedAt: string;
}
