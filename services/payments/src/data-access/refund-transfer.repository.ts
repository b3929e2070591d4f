import { insertOrGet, type Store } from "@payrail/store";
import type { RefundTransfersPort } from "../domain/refund-payouts/ports/refund-transfers.port.ts";
import type { TransferStatus } from "../domain/transfers/ports/transfer.port.ts";
import type { RefundTransferRecord } from "../domain/refund-payouts/refund-transfer.entity.ts";

/** Refund payouts, one per refund and attempt (`_id` = payout id). */
export class RefundTransferRepository implements RefundTransfersPort {
  constructor(private readonly store: Store) {}

  private get transfers() {
    return this.store.collection<RefundTransferRecord>("refund_transfers");
  }

  async ensureIndexes(): Promise<void> {
    await this.transfers.createIndex({ keys: { transferId: 1 }, name: "transfer" });
    await this.transfers.createIndex({ keys: { status: 1, updatedAt: 1 }, name: "status_updated" });
  }

  async findOrCreate(record: RefundTransferRecord): Promise<RefundTransferRecord> {
    // The _id is the payout id: when a racing call created it first, its record is the one.
    return (await insertOrGet(this.transfers, record)).doc;
  }

  find(payoutId: string): Promise<RefundTransferRecord | null> {
    return this.transfers.findOne({ _id: payoutId });
  }

  findByTransferId(transferId: string): Promise<RefundTransferRecord | null> {
    return this.transfers.findOne({ transferId });
  }

  async recordTransferId(payoutId: string, transferId: string, at: string): Promise<void> {
    await this.transfers.findOneAndUpdate({ _id: payoutId, transferId: null }, { $set: { transferId, updatedAt: at } });
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

  pendingBetween(after: string, before: string, limit: number): Promise<RefundTransferRecord[]> {
    return this.transfers.find(
      { status: "pending", updatedAt: { $gt: after, $lt: before }, $or: [{ reconciledAt: null }, { reconciledAt: { $lt: before } }] },
      { sort: { status: 1, updatedAt: 1 }, limit },
    );
  }

  async markReconciled(payoutId: string, at: string): Promise<void> {
    await this.transfers.findOneAndUpdate({ _id: payoutId, status: "pending" }, { $set: { reconciledAt: at } });
  }
}
