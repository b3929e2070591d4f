import type { DomainEvent } from "@payrail/contracts";
import { insertOrGet, insertWithEvents, NOT_REMOVED, removeWithEvents, withEvents, type Store } from "@payrail/store";
import type { EndpointChanges, EndpointsPort } from "../domain/ports/endpoints.port.ts";
import type { EndpointDoc } from "../domain/webhook-endpoint.entity.ts";

export const ENDPOINTS_COLLECTION = "webhook_endpoints";

/**
 * Webhook endpoints (`_id` = `we_…`); the secrets in them are sealed. The documents carry the
 * audit entries of the merchant's changes to them (the outbox, published by the service's relay);
 * a deleted endpoint stays as a tombstone until its entry is published, which every read skips.
 */
export class EndpointRepository implements EndpointsPort {
  constructor(private readonly store: Store) {}

  private get endpoints() {
    return this.store.collection<EndpointDoc>(ENDPOINTS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.endpoints.createIndex({ keys: { merchantId: 1, createdAt: -1, _id: -1 }, name: "merchant_newest" });
  }

  insert(doc: EndpointDoc, audit: readonly DomainEvent[]): Promise<{ inserted: boolean; doc: EndpointDoc }> {
    return insertOrGet(this.endpoints, insertWithEvents(doc, audit));
  }

  find(endpointId: string): Promise<EndpointDoc | null> {
    return this.endpoints.findOne({ _id: endpointId, ...NOT_REMOVED });
  }

  list(merchantId: string, limit: number): Promise<EndpointDoc[]> {
    return this.endpoints.find({ merchantId, ...NOT_REMOVED }, { sort: { createdAt: -1, _id: -1 }, limit });
  }

  enabledOf(merchantId: string): Promise<EndpointDoc[]> {
    // A merchant has a handful of endpoints: the merchant index serves this.
    return this.endpoints.find({ merchantId, status: "enabled", ...NOT_REMOVED });
  }

  update(merchantId: string, endpointId: string, changes: EndpointChanges, audit: readonly DomainEvent[]): Promise<EndpointDoc | null> {
    return this.endpoints.findOneAndUpdate({ _id: endpointId, merchantId, ...NOT_REMOVED }, withEvents({ $set: changes }, audit));
  }

  rotate(endpointId: string, expectedSecret: string, secret: string, previousExpiresAt: string, at: string, audit: readonly DomainEvent[]): Promise<EndpointDoc | null> {
    return this.endpoints.findOneAndUpdate(
      { _id: endpointId, secret: expectedSecret, ...NOT_REMOVED },
      withEvents({ $set: { secret, previousSecret: expectedSecret, previousSecretExpiresAt: previousExpiresAt, updatedAt: at } }, audit),
    );
  }

  async remove(merchantId: string, endpointId: string, audit: readonly DomainEvent[]): Promise<boolean> {
    return (await this.endpoints.findOneAndUpdate({ _id: endpointId, merchantId, ...NOT_REMOVED }, removeWithEvents(audit))) !== null;
  }

  async markFailing(endpointId: string, at: string): Promise<void> {
    await this.endpoints.findOneAndUpdate({ _id: endpointId, failingSince: null }, { $set: { failingSince: at } });
  }

  async markHealthy(endpointId: string): Promise<void> {
    await this.endpoints.findOneAndUpdate({ _id: endpointId, failingSince: { $ne: null } }, { $set: { failingSince: null } });
  }

  disableFailing(endpointId: string, failingBefore: string, reason: string, at: string): Promise<EndpointDoc | null> {
    return this.endpoints.findOneAndUpdate(
      { _id: endpointId, status: "enabled", failingSince: { $lte: failingBefore }, ...NOT_REMOVED },
      { $set: { status: "disabled", disabledReason: reason, updatedAt: at } },
    );
  }
}
