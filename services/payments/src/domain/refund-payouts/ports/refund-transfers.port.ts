import type { RefundTransferRecord } from "../refund-transfer.entity.ts";
import type { ProviderTransfersPort } from "../../transfers/ports/provider-transfers.port.ts";
import type { TransferStatus } from "../../transfers/ports/transfer.port.ts";

/** Storage of refund payouts (`_id` = the payout id). */
export interface RefundTransfersPort extends ProviderTransfersPort<RefundTransferRecord> {
  /** `pending` → a final status (with why, when it failed), once; null when the record is no longer pending. */
  settle(
    payoutId: string,
    status: Exclude<TransferStatus, "pending">,
    failure: { code: string; reason: string } | null,
    at: string,
  ): Promise<RefundTransferRecord | null>;
}
