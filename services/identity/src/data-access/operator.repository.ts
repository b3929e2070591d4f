import { insertIfAbsent, type Store } from "@payrail/store";
import { operatorId, type OperatorRecord } from "../domain/operator.entity.ts";
import type { OperatorsPort } from "../domain/ports/operators.port.ts";

/** Merchant operators (`_id` = merchant id and phone, see operator.entity.ts). */
export class OperatorRepository implements OperatorsPort {
  constructor(private readonly store: Store) {}

  private get operators() {
    return this.store.collection<OperatorRecord>("merchant_operators");
  }

  async ensureIndexes(): Promise<void> {
    await this.operators.createIndex({ keys: { merchantId: 1, createdAt: 1 }, name: "merchant_oldest" });
    // Whose operator a phone is (the sandbox's code read-back).
    await this.operators.createIndex({ keys: { phone: 1 }, name: "phone" });
  }

  async add(record: OperatorRecord): Promise<void> {
    // Registered already (or by a racing call): adding is idempotent.
    await insertIfAbsent(this.operators, record);
  }

  async isOperator(merchantId: string, phone: string): Promise<boolean> {
    return (await this.operators.findOne({ _id: operatorId(merchantId, phone) })) !== null;
  }

  listForMerchant(merchantId: string, limit: number): Promise<OperatorRecord[]> {
    return this.operators.find({ merchantId }, { sort: { createdAt: 1, _id: 1 }, limit });
  }

  async merchantsOf(phone: string, limit: number): Promise<string[]> {
    return (await this.operators.find({ phone }, { limit })).map((o) => o.merchantId);
  }

  remove(merchantId: string, phone: string): Promise<boolean> {
    return this.operators.deleteOne({ _id: operatorId(merchantId, phone) });
  }
}
