import { insertOrGet, type Store } from "@payrail/store";
import type { ProviderTransfersPort } from "../domain/transfers/ports/provider-transfers.port.ts";
import type { ProviderTransferRecord } from "../domain/transfers/provider-transfer.record.ts";

/** One kind of merchant-sent transfer record in its own collection (`_id` = the idempotency key). */
export class ProviderTransferRepository<R extends ProviderTransferRecord> implements ProviderTransfersPort<R> {
  constructor(
    protected readonly store: Store,
    private readonly collectionName: string,
  ) {}

  protected get transfers() {
    return this.store.collection<R>(this.collectionName);
  }

  async ensureIndexes(): Promise<void> {
    await this.transfers.createIndex({ keys: { transferId: 1 }, name: "transfer" });
    await this.transfers.createIndex({ keys: { status: 1, updatedAt: 1 }, name: "status_updated" });
  }

  async findOrCreate(record: R): Promise<R> {
    // When a racing call created it first, its record is the one.
    return (await insertOrGet(this.transfers, record)).doc;
  }

  find(id: string): Promise<R | null> {
    return this.transfers.findOne({ _id: id });
  }

  findByTransferId(transferId: string): Promise<R | null> {
    return this.transfers.findOne({ transferId });
  }

  async recordTransferId(id: string, transferId: string, at: string): Promise<void> {
    await this.transfers.findOneAndUpdate({ _id: id, transferId: null }, { $set: { transferId, updatedAt: at } });
  }

  pendingBetween(after: string, before: string, limit: number): Promise<R[]> {
    return this.transfers.find(
      { status: "pending", updatedAt: { $gt: after, $lt: before }, $or: [{ reconciledAt: null }, { reconciledAt: { $lt: before } }] },
      { sort: { status: 1, updatedAt: 1 }, limit },
    );
  }

  async markReconciled(id: string, at: string): Promise<void> {
    await this.transfers.findOneAndUpdate({ _id: id, status: "pending" }, { $set: { reconciledAt: at } });
  }
}
