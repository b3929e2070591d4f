import { insertOrGet, type Store } from "@payrail/store";
import type { RefundTransfersPort } from "../domain/ports/refund-transfers.port.ts";
import type { TransferStatus } from "../domain/ports/transfer.port.ts";
import type { RefundTransferRecord } from "../domain/refund-transfer.entity.ts";

/** Refund transfers, one per refund (`_id` = refund id). */
export class RefundTransferRepository implements RefundTransfersPort {
  constructor(private readonly store: Store) {}

  private get transfers() {
    return this.store.collection<RefundTransferRecord>("refund_transfers");
  }

  async ensureIndexes(): Promise<void> {
    await this.transfers.createIndex({ keys: { transferId: 1 }, name: "transfer" });
  }

  async findOrCreate(record: RefundTransferRecord): Promise<RefundTransferRecord> {
    // The _id is the refund id: when a racing call created it first, its record is the one.
    return (await insertOrGet(this.transfers, record)).doc;
  }

  find(refundId: string): Promise<RefundTransferRecord | null> {
    return this.transfers.findOne({ _id: refundId });
  }

  findByTransferId(transferId: string): Promise<RefundTransferRecord | null> {
    return this.transfers.findOne({ transferId });
  }

  async recordTransferId(refundId: string, transferId: string, at: string): Promise<void> {
    await this.transfers.findOneAndUpdate({ _id: refundId, transferId: null }, { $set: { transferId, updatedAt: at } });
  }

  settle(
    refundId: string,
    status: Exclude<TransferStatus, "pending">,
    failureCode: string | null,
    at: string,
  ): Promise<RefundTransferRecord | null> {
    return this.transfers.findOneAndUpdate({ _id: refundId, status: "pending" }, { $set: { status, failureCode, updatedAt: at } });
  }
}
