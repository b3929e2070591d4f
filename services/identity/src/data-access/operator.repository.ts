import type { DomainEvent } from "@payrail/contracts";
import { insertIfAbsent, insertWithEvents, NOT_REMOVED, removeWithEvents, withEvents, type Store } from "@payrail/store";
import { operatorId, type OperatorRecord } from "../domain/operator.entity.ts";
import type { OperatorsPort } from "../domain/ports/operators.port.ts";

/**
 * The collection of merchant operators; its documents carry the audit entries of their adding and
 * removal (the outbox). A removed operator stays as a tombstone until its entry is published,
 * which every query here skips (`NOT_REMOVED`).
 */
export const OPERATORS_COLLECTION = "merchant_operators";

/** Merchant operators (`_id` = merchant id and phone, see operator.entity.ts). */
export class OperatorRepository implements OperatorsPort {
  constructor(private readonly store: Store) {}

  private get operators() {
    return this.store.collection<OperatorRecord>(OPERATORS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.operators.createIndex({ keys: { merchantId: 1, createdAt: 1 }, name: "merchant_oldest" });
    // Whose operator a phone is (the sandbox's code read-back).
    await this.operators.createIndex({ keys: { phone: 1 }, name: "phone" });
  }

  async add(record: OperatorRecord, audit: readonly DomainEvent[] = []): Promise<boolean> {
    // The relay may delete a tombstone between any two of these writes; each pass then finds
    // the document gone and inserts it on the next. A third pass meets only a live operator.
    for (let pass = 0; pass < 3; pass++) {
      if (await insertIfAbsent(this.operators, insertWithEvents(record, audit))) return true;
      // Removed a moment ago and not yet gone (its entry on its way): registered again in the same
      // document. The new entry changes its outbox, so the relay's delete of the tombstone misses it.
      const revived = await this.operators.findOneAndUpdate({ _id: record._id, outboxRemove: true }, withEvents({ $set: { outboxRemove: false, createdAt: record.createdAt } }, audit));
      if (revived !== null) return true;
      // Registered already (or by a racing call): adding is idempotent.
      if (await this.operators.findOne({ ...NOT_REMOVED, _id: record._id })) return false;
    }
    return false;
  }

  async isOperator(merchantId: string, phone: string): Promise<boolean> {
    return (await this.operators.findOne({ ...NOT_REMOVED, _id: operatorId(merchantId, phone) })) !== null;
  }

  listForMerchant(merchantId: string, limit: number): Promise<OperatorRecord[]> {
    return this.operators.find({ ...NOT_REMOVED, merchantId }, { sort: { createdAt: 1, _id: 1 }, limit });
  }

  async merchantsOf(phone: string, limit: number): Promise<string[]> {
    return (await this.operators.find({ ...NOT_REMOVED, phone }, { limit })).map((o) => o.merchantId);
  }

  async remove(merchantId: string, phone: string, audit: readonly DomainEvent[] = []): Promise<boolean> {
    return (await this.operators.findOneAndUpdate({ ...NOT_REMOVED, _id: operatorId(merchantId, phone) }, removeWithEvents(audit))) !== null;
  }
}
