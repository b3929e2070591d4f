import type { DomainEvent } from "@payrail/contracts";
import { withEvents, type Store } from "@payrail/store";
import type { PayoutTransfersPort } from "../domain/merchant-payouts/ports/payout-transfers.port.ts";
import type { PayoutTransferRecord } from "../domain/merchant-payouts/payout-transfer.entity.ts";
import type { TransferStatus } from "../domain/transfers/ports/transfer.port.ts";
import { ProviderTransferRepository } from "./provider-transfer.repository.ts";

export const PAYOUT_TRANSFERS_COLLECTION = "payout_transfers";

/** Merchant payout transfers, one per payout (`_id` = the ledger's payout id); they carry payout_transfer.settled in their outbox. */
export class PayoutTransferRepository extends ProviderTransferRepository<PayoutTransferRecord> implements PayoutTransfersPort {
  constructor(store: Store) {
    super(store, PAYOUT_TRANSFERS_COLLECTION);
  }

  async settle(
    payoutId: string,
    status: Exclude<TransferStatus, "pending">,
    failure: { code: string; reason: string } | null,
    at: string,
    event: (after: PayoutTransferRecord) => DomainEvent,
  ): Promise<PayoutTransferRecord | null> {
    const current = await this.find(payoutId);
    if (current?.status !== "pending") return null;
    const set = { status, failureCode: failure?.code ?? null, failureReason: failure?.reason ?? null, updatedAt: at };
    return this.transfers.findOneAndUpdate({ _id: payoutId, status: "pending" }, withEvents({ $set: set }, [event({ ...current, ...set })]));
  }
}
