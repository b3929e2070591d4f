import type { Store } from "@payrail/store";
import type { RefundTransfersPort } from "../domain/refund-payouts/ports/refund-transfers.port.ts";
import type { TransferStatus } from "../domain/transfers/ports/transfer.port.ts";
import type { RefundTransferRecord } from "../domain/refund-payouts/refund-transfer.entity.ts";
import { ProviderTransferRepository } from "./provider-transfer.repository.ts";

/** Refund payouts, one per refund and attempt (`_id` = payout id). */
export class RefundTransferRepository extends ProviderTransferRepository<RefundTransferRecord> implements RefundTransfersPort {
  constructor(store: Store) {
    super(store, "refund_transfers");
  }

  settle(
    payoutId: string,
    status: Exclude<TransferStatus, "pending">,
    failure: { code: string; reason: string } | null,
    at: string,
  ): Promise<RefundTransferRecord | null> {
    return this.transfers.findOneAndUpdate(
      { _id: payoutId, status: "pending" },
      { $set: { status, failureCode: failure?.code ?? null, failureReason: failure?.reason ?? null, updatedAt: at } },
    );
  }
}
