import type { PayoutTransferSnapshot } from "@payrail/contracts";
import type { OutboxFields } from "@payrail/store";
import type { ProviderTransferRecord } from "../transfers/provider-transfer.record.ts";

/**
 * The transfer of one merchant payout (the ledger's `po_…`): merchant's funding source at the
 * provider → the merchant's bank. `_id` is the payout id, which is also the provider's
 * idempotency key; the record is written before the provider is asked, so a call that died after
 * the provider answered is finished by the next one with the same key: one transfer per payout.
 */
export interface PayoutTransferRecord extends ProviderTransferRecord, OutboxFields {
  merchantId: string;
  /**
   * The two ends at the provider, as they were at the first try: a retry sends the same transfer
   * whatever the merchant changed since, and the reconciler searches the source's owner for a
   * transfer whose answer was lost. Absent when the merchant had no bank to pay to.
   */
  sourceFundingSource?: string;
  destinationFundingSource?: string;
}

/** What payout_transfer.settled (and the sandbox's simulation) says of a final payout transfer. */
export function toPayoutTransferSnapshot(record: PayoutTransferRecord): PayoutTransferSnapshot {
  const failed = record.status !== "completed";
  return {
    payout_id: record._id,
    transfer_id: record.transferId,
    status: failed ? "failed" : "completed",
    ...(failed && record.failureCode ? { failure_code: record.failureCode.slice(0, 64) } : {}),
    ...(failed && record.failureReason ? { failure_reason: record.failureReason.slice(0, 500) } : {}),
    amount_cents: record.amountCents,
  };
}
