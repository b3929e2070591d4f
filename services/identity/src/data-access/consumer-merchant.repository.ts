import { insertIfAbsent, type Store } from "@payrail/store";
import type { ConsumerMerchantsPort } from "../domain/ports/consumer-merchants.port.ts";

interface ConsumerMerchantRecord {
  /** `<userId>|<merchantId>`: the `_id` keeps one record per pair, however often events repeat. */
  _id: string;
  userId: string;
  merchantId: string;
  since: string;
}

/** `consumer_merchants`: a consumer and a merchant whose checkout they saved a bank account on. */
export class ConsumerMerchantRepository implements ConsumerMerchantsPort {
  constructor(private readonly store: Store) {}

  private get pairs() {
    return this.store.collection<ConsumerMerchantRecord>("consumer_merchants");
  }

  async ensureIndexes(): Promise<void> {
    await this.pairs.createIndex({ keys: { userId: 1 }, name: "user" });
  }

  async add(userId: string, merchantId: string, at: string): Promise<void> {
    await insertIfAbsent(this.pairs, { _id: `${userId}|${merchantId}`, userId, merchantId, since: at });
  }

  async pays(userId: string, merchantId: string): Promise<boolean> {
    return (await this.pairs.findOne({ _id: `${userId}|${merchantId}` })) !== null;
  }

  async paysAny(userId: string): Promise<boolean> {
    return (await this.pairs.findOne({ userId })) !== null;
  }
}
