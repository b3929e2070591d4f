import type { DomainEvent } from "@payrail/contracts";
import { centsWithin, insertOrGet, insertWithEvents, olderThan, widenIndex, withEvents, within, type Filter, type Store } from "@payrail/store";
import type { MerchantRefundFilter, RefundMove, RefundsPort } from "../domain/ports/refunds.port.ts";
import type { RefundDoc } from "../domain/refund.entity.ts";

/** The collection of refund records; their documents also carry their unpublished events (the outbox). */
export const REFUNDS_COLLECTION = "refunds";

/** Refund records (`_id` = refund id). */
export class RefundRepository implements RefundsPort {
  constructor(private readonly store: Store) {}

  private get refunds() {
    return this.store.collection<RefundDoc>(REFUNDS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.refunds.createIndex({ keys: { userId: 1, createdAt: -1 }, name: "user_newest" });
    // The merchant's list, its amount last (docs/decisions/0055-amount-filters.md): after the unique id
    // it changes no order, and an amount range is checked on the index's keys before any fetch.
    await widenIndex(this.refunds, { keys: { merchantId: 1, createdAt: -1, _id: -1, amountCents: 1 }, name: "merchant_newest_amount" }, "merchant_newest");
  }

  async insert(doc: RefundDoc, event: DomainEvent): Promise<{ inserted: boolean; doc: RefundDoc }> {
    const { inserted, doc: stored } = await insertOrGet(this.refunds, insertWithEvents(doc, [event]));
    return { inserted, doc: inserted ? doc : stored };
  }

  find(refundId: string): Promise<RefundDoc | null> {
    return this.refunds.findOne({ _id: refundId });
  }

  findMany(refundIds: string[]): Promise<RefundDoc[]> {
    return this.refunds.find({ _id: { $in: refundIds } });
  }

  listForUser(userId: string, limit: number, merchantId?: string): Promise<RefundDoc[]> {
    // The id breaks ties between refunds asked for in the same millisecond (a stable order).
    // A sandbox token's merchant filters within the user's refunds (user_newest serves it).
    return this.refunds.find({ userId, ...(merchantId === undefined ? {} : { merchantId }) }, { sort: { createdAt: -1, _id: -1 }, limit });
  }

  listForMerchant(merchantId: string, filter: MerchantRefundFilter, limit: number): Promise<RefundDoc[]> {
    const query: Filter = { merchantId };
    if (filter.status) query["status"] = filter.status;
    if (filter.transactionUuid) query["transactionUuid"] = filter.transactionUuid;
    const created = within(filter);
    if (created) query["createdAt"] = created;
    const amount = centsWithin(filter);
    if (amount) query["amountCents"] = amount;
    if (filter.after) query.$or = olderThan("createdAt", filter.after);
    return this.refunds.find(query, { sort: { createdAt: -1, _id: -1 }, limit });
  }

  move({ refundId, from, attempt, to, changes, at, event, audit = [] }: RefundMove): Promise<RefundDoc | null> {
    return this.refunds.findOneAndUpdate(
      { _id: refundId, status: from, attempt },
      withEvents({ $set: { ...changes, status: to, updatedAt: at }, $inc: { version: 1 } }, [event, ...audit]),
    );
  }

  markOverReturned(refundId: string, at: string, event: DomainEvent): Promise<RefundDoc | null> {
    return this.refunds.findOneAndUpdate(
      { _id: refundId, status: "completed", overReturnedAt: null },
      withEvents({ $set: { overReturnedAt: at, updatedAt: at }, $inc: { version: 1 } }, [event]),
    );
  }

  recordTransferId(refundId: string, attempt: number, transferId: string, at: string): Promise<RefundDoc | null> {
    return this.refunds.findOneAndUpdate(
      { _id: refundId, status: "processing", attempt, refundTransactionId: null },
      { $set: { refundTransactionId: transferId, updatedAt: at } },
    );
  }
}
