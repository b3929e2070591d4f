import { insertIfAbsent, type Store } from "@payrail/store";
import type { EndpointQuota, EndpointQuotaPort } from "../domain/ports/endpoint-quota.port.ts";

interface QuotaDoc extends EndpointQuota {
  /** The merchant id. */
  _id: string;
}

/** `webhook_endpoint_quotas`: one counter per merchant (`_id`), so no index beyond `_id`. */
export class EndpointQuotaRepository implements EndpointQuotaPort {
  constructor(private readonly store: Store) {}

  private get quotas() {
    return this.store.collection<QuotaDoc>("webhook_endpoint_quotas");
  }

  async take(merchantId: string, limit: number, at: string): Promise<boolean> {
    return (await this.quotas.findOneAndUpdate({ _id: merchantId, count: { $lt: limit } }, { $inc: { count: 1 }, $set: { updatedAt: at } })) !== null;
  }

  find(merchantId: string): Promise<EndpointQuota | null> {
    return this.quotas.findOne({ _id: merchantId });
  }

  async open(merchantId: string, count: number, at: string): Promise<void> {
    await insertIfAbsent(this.quotas, { _id: merchantId, count, updatedAt: at });
  }

  async correct(merchantId: string, expected: EndpointQuota, count: number, at: string): Promise<boolean> {
    const filter = { _id: merchantId, count: expected.count, updatedAt: expected.updatedAt };
    return (await this.quotas.findOneAndUpdate(filter, { $set: { count, updatedAt: at } })) !== null;
  }

  async release(merchantId: string, at: string): Promise<void> {
    await this.quotas.findOneAndUpdate({ _id: merchantId, count: { $gt: 0 } }, { $inc: { count: -1 }, $set: { updatedAt: at } });
  }
}
