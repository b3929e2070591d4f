import type { RefundStatus } from "@payrail/contracts";
import type { Store } from "@payrail/store";
import type { RefundChanges, RefundsPort } from "../domain/ports/refunds.port.ts";
import type { RefundDoc } from "../domain/refund.entity.ts";

/** Refund records (`_id` = refund id). */
export class RefundRepository implements RefundsPort {
  constructor(private readonly store: Store) {}

  private get refunds() {
    return this.store.collection<RefundDoc>("refunds");
  }

  async ensureIndexes(): Promise<void> {
    await this.refunds.createIndex({ keys: { userId: 1, createdAt: -1 }, name: "user_newest" });
  }

  insert(doc: RefundDoc): Promise<void> {
    return this.refunds.insertOne(doc);
  }

  find(refundId: string): Promise<RefundDoc | null> {
    return this.refunds.findOne({ _id: refundId });
  }

  listForUser(userId: string, limit: number): Promise<RefundDoc[]> {
    // The id breaks ties between refunds asked for in the same millisecond (a stable order).
    return this.refunds.find({ userId }, { sort: { createdAt: -1, _id: -1 }, limit });
  }

  move(refundId: string, from: RefundStatus, to: RefundStatus, changes: RefundChanges, at: string): Promise<RefundDoc | null> {
    return this.refunds.findOneAndUpdate({ _id: refundId, status: from }, { $set: { ...changes, status: to, updatedAt: at } });
  }

  recordTransferId(refundId: string, transferId: string, at: string): Promise<RefundDoc | null> {
    return this.refunds.findOneAndUpdate({ _id: refundId, refundTransactionId: null }, { $set: { refundTransactionId: transferId, updatedAt: at } });
  }
}
