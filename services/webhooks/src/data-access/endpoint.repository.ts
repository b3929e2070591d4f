import { insertOrGet, type Store } from "@payrail/store";
import type { EndpointChanges, EndpointsPort } from "../domain/ports/endpoints.port.ts";
import type { EndpointDoc } from "../domain/webhook-endpoint.entity.ts";

export const ENDPOINTS_COLLECTION = "webhook_endpoints";

/** Webhook endpoints (`_id` = `we_…`); the secrets in them are sealed. */
export class EndpointRepository implements EndpointsPort {
  constructor(private readonly store: Store) {}

  private get endpoints() {
    return this.store.collection<EndpointDoc>(ENDPOINTS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.endpoints.createIndex({ keys: { merchantId: 1, createdAt: -1, _id: -1 }, name: "merchant_newest" });
  }

  insert(doc: EndpointDoc): Promise<{ inserted: boolean; doc: EndpointDoc }> {
    return insertOrGet(this.endpoints, doc);
  }

  find(endpointId: string): Promise<EndpointDoc | null> {
    return this.endpoints.findOne({ _id: endpointId });
  }

  list(merchantId: string, limit: number): Promise<EndpointDoc[]> {
    return this.endpoints.find({ merchantId }, { sort: { createdAt: -1, _id: -1 }, limit });
  }

  enabledOf(merchantId: string): Promise<EndpointDoc[]> {
    // A merchant has a handful of endpoints: the merchant index serves this.
    return this.endpoints.find({ merchantId, status: "enabled" });
  }

  update(merchantId: string, endpointId: string, changes: EndpointChanges): Promise<EndpointDoc | null> {
    return this.endpoints.findOneAndUpdate({ _id: endpointId, merchantId }, { $set: changes });
  }

  rotate(endpointId: string, expectedSecret: string, secret: string, previousExpiresAt: string, at: string): Promise<EndpointDoc | null> {
    return this.endpoints.findOneAndUpdate(
      { _id: endpointId, secret: expectedSecret },
      { $set: { secret, previousSecret: expectedSecret, previousSecretExpiresAt: previousExpiresAt, updatedAt: at } },
    );
  }

  remove(merchantId: string, endpointId: string): Promise<boolean> {
    return this.endpoints.deleteOne({ _id: endpointId, merchantId });
  }

  async markFailing(endpointId: string, at: string): Promise<void> {
    await this.endpoints.findOneAndUpdate({ _id: endpointId, failingSince: null }, { $set: { failingSince: at } });
  }

  async markHealthy(endpointId: string): Promise<void> {
    await this.endpoints.findOneAndUpdate({ _id: endpointId, failingSince: { $ne: null } }, { $set: { failingSince: null } });
  }

  disableFailing(endpointId: string, failingBefore: string, reason: string, at: string): Promise<EndpointDoc | null> {
    return this.endpoints.findOneAndUpdate(
      { _id: endpointId, status: "enabled", failingSince: { $lte: failingBefore } },
      { $set: { status: "disabled", disabledReason: reason, updatedAt: at } },
    );
  }
}
