import type { DomainEvent } from "@payrail/contracts";
import { insertIfAbsent, insertWithEvents, withEvents, type Store } from "@payrail/store";
import type { ApiKeyRecord, MerchantChanges, MerchantRecord } from "../domain/merchant.entity.ts";
import type { MerchantsPort } from "../domain/ports/merchants.port.ts";

/** The collection of merchants; its documents carry the audit entries of their changes (the outbox). */
export const MERCHANTS_COLLECTION = "merchants";

/** The collection of API keys (`_id` = the key's hash); its documents carry the audit entries of their changes (the outbox). */
export const API_KEYS_COLLECTION = "api_keys";

export class MerchantRepository implements MerchantsPort {
  constructor(private readonly store: Store) {}

  private get merchants() {
    return this.store.collection<MerchantRecord>(MERCHANTS_COLLECTION);
  }
  private get keys() {
    return this.store.collection<ApiKeyRecord>(API_KEYS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.keys.createIndex({ keys: { merchantId: 1, prefix: 1 }, unique: true, name: "merchant_prefix" });
    await this.keys.createIndex({ keys: { merchantId: 1, createdAt: 1 }, name: "merchant_oldest" });
    await this.merchants.createIndex({ keys: { createdAt: -1, _id: -1 }, name: "newest" });
  }

  insertMerchant(record: MerchantRecord, audit: readonly DomainEvent[] = []): Promise<boolean> {
    return insertIfAbsent(this.merchants, insertWithEvents(record, audit));
  }

  findMerchant(merchantId: string): Promise<MerchantRecord | null> {
    return this.merchants.findOne({ _id: merchantId });
  }

  updateMerchant(merchantId: string, changes: MerchantChanges, audit: readonly DomainEvent[] = []): Promise<MerchantRecord | null> {
    // `$ne` matches a missing field unless the value is null (MongoDB's rule), so clearing a field the merchant never had changes nothing.
    const differs = Object.entries(changes).map(([field, value]) => ({ [field]: { $ne: value } }));
    if (differs.length === 0) return Promise.resolve(null);
    return this.merchants.findOneAndUpdate({ _id: merchantId, $or: differs }, withEvents({ $set: { ...changes } }, audit));
  }

  setRequireTwoFactor(merchantId: string, required: boolean, audit: readonly DomainEvent[] = []): Promise<MerchantRecord | null> {
    // A merchant that never set the rule has no field: `$ne` matches it when requiring, `$ne: false` when lifting would not.
    const other = required ? { $ne: true } : true;
    return this.merchants.findOneAndUpdate({ _id: merchantId, requireTwoFactor: other }, withEvents({ $set: { requireTwoFactor: required } }, audit));
  }

  insertKey(record: ApiKeyRecord, audit: readonly DomainEvent[] = []): Promise<boolean> {
    return insertIfAbsent(this.keys, insertWithEvents(record, audit));
  }

  findActiveKey(hash: string): Promise<ApiKeyRecord | null> {
    return this.keys.findOne({ _id: hash, revokedAt: null });
  }

  revokeKey(merchantId: string, prefix: string, at: string, audit: readonly DomainEvent[] = []): Promise<ApiKeyRecord | null> {
    return this.keys.findOneAndUpdate({ merchantId, prefix, revokedAt: null }, withEvents({ $set: { revokedAt: at } }, audit));
  }

  findKeyByPrefix(merchantId: string, prefix: string): Promise<ApiKeyRecord | null> {
    return this.keys.findOne({ merchantId, prefix });
  }

  listMerchants(limit: number): Promise<MerchantRecord[]> {
    return this.merchants.find({}, { sort: { createdAt: -1, _id: -1 }, limit });
  }

  listKeys(merchantId: string, limit: number): Promise<ApiKeyRecord[]> {
    return this.keys.find({ merchantId }, { sort: { createdAt: 1, _id: 1 }, limit });
  }
}
