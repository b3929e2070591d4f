import type { ProviderTransferRecord } from "../transfers/provider-transfer.record.ts";

/**
 * One payout of a refund: a transfer merchant → consumer. A refund's first payout has the
 * refund id as `_id`; once one failed, the merchant may start the next, `<refund id>-<attempt>`.
 * The `_id` is also the provider's idempotency key, and the record is created before the
 * provider is asked, so a call that died after the provider's answer is finished by the next
 * one with the same key, and each attempt is a new transfer.
 */
export interface RefundTransferRecord extends ProviderTransferRecord {
  /** The payout id: `payoutId(refundId, attempt)`. */
  _id: string;
  refundId: string;
  /** 1 for the refund's first payout, then one more per payout that failed. */
  attempt: number;
  transactionUuid: string;
  /** The original transaction's merchant: only it may simulate this transfer in the sandbox. */
  merchantId: string;
}

/** The id (and idempotency key) of a refund's payout `attempt`: the refund id itself for the first. */
export function payoutId(refundId: string, attempt: number): string {
  return attempt === 1 ? refundId : `${refundId}-${attempt}`;
}
