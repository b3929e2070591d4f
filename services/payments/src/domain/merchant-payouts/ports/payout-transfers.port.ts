import type { DomainEvent } from "@payrail/contracts";
import type { ProviderTransfersPort } from "../../transfers/ports/provider-transfers.port.ts";
import type { TransferStatus } from "../../transfers/ports/transfer.port.ts";
import type { PayoutTransferRecord } from "../payout-transfer.entity.ts";

/** Storage of merchant payout transfers (`_id` = the payout id). */
export interface PayoutTransfersPort extends ProviderTransfersPort<PayoutTransferRecord> {
  /** `pending` → a final status with its event, once; null when the record is no longer pending. */
  settle(
    payoutId: string,
    status: Exclude<TransferStatus, "pending">,
    failure: { code: string; reason: string } | null,
    at: string,
    event: (after: PayoutTransferRecord) => DomainEvent,
  ): Promise<PayoutTransferRecord | null>;
}
