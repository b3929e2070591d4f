import type { DomainEvent } from "@payrail/contracts";
import { insertOrGet, withEvents, type Store } from "@payrail/store";
import type { PayoutTransfersPort } from "../domain/merchant-payouts/ports/payout-transfers.port.ts";
import type { PayoutTransferRecord } from "../domain/merchant-payouts/payout-transfer.entity.ts";
import type { TransferStatus } from "../domain/transfers/ports/transfer.port.ts";

export const PAYOUT_TRANSFERS_COLLECTION = "payout_transfers";

/** Merchant payout transfers, one per payout (`_id` = the ledger's payout id); they carry payout_transfer.settled in their outbox. */
export class PayoutTransferRepository implements PayoutTransfersPort {
  constructor(private readonly store: Store) {}

  private get transfers() {
    return this.store.collection<PayoutTransferRecord>(PAYOUT_TRANSFERS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.transfers.createIndex({ keys: { transferId: 1 }, name: "transfer" });
    await this.transfers.createIndex({ keys: { status: 1, updatedAt: 1 }, name: "status_updated" });
  }

  async findOrCreate(record: PayoutTransferRecord): Promise<PayoutTransferRecord> {
    return (await insertOrGet(this.transfers, record)).doc;
  }

  find(payoutId: string): Promise<PayoutTransferRecord | null> {
    return this.transfers.findOne({ _id: payoutId });
  }

  findByTransferId(transferId: string): Promise<PayoutTransferRecord | null> {
    return this.transfers.findOne({ transferId });
  }

  async recordTransferId(payoutId: string, transferId: string, at: string): Promise<void> {
    await this.transfers.findOneAndUpdate({ _id: payoutId, transferId: null }, { $set: { transferId, updatedAt: at } });
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

  pendingBetween(after: string, before: string, limit: number): Promise<PayoutTransferRecord[]> {
    return this.transfers.find(
      { status: "pending", updatedAt: { $gt: after, $lt: before }, $or: [{ reconciledAt: null }, { reconciledAt: { $lt: before } }] },
      { sort: { status: 1, updatedAt: 1 }, limit },
    );
  }

  async markReconciled(payoutId: string, at: string): Promise<void> {
    await this.transfers.findOneAndUpdate({ _id: payoutId, status: "pending" }, { $set: { reconciledAt: at } });
  }
}
