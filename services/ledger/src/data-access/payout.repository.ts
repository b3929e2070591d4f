import type { DomainEvent } from "@payrail/contracts";
import { insertIfAbsent, olderThan, withEvents, type Filter, type Store } from "@payrail/store";
import type { PayoutDoc } from "../domain/payout.entity.ts";
import type { PayoutsPort } from "../domain/ports/payouts.port.ts";

export const PAYOUTS_COLLECTION = "payouts";

/** The merchants' payouts (`_id` derived from merchant and day); they carry payout.* in their outbox. */
export class PayoutRepository implements PayoutsPort {
  constructor(private readonly store: Store) {}

  private get payouts() {
    return this.store.collection<PayoutDoc>(PAYOUTS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    // The list: a merchant's payouts, newest first (those still `open` skipped).
    await this.payouts.createIndex({ keys: { merchantId: 1, createdAt: -1, _id: -1 }, name: "merchant_newest" });
  }

  insert(doc: PayoutDoc): Promise<boolean> {
    return insertIfAbsent(this.payouts, doc);
  }

  find(id: string): Promise<PayoutDoc | null> {
    return this.payouts.findOne({ _id: id });
  }

  claim(id: string, fence: number): Promise<PayoutDoc | null> {
    // A payout left open by a run before fencing tokens has none: any run may claim it.
    return this.payouts.findOneAndUpdate({ _id: id, stage: "open", $or: [{ fence: null }, { fence: { $lt: fence } }] }, { $set: { fence } });
  }

  async create(id: string, fence: number, amountCents: number, at: string, event: (after: PayoutDoc) => DomainEvent, audit: readonly DomainEvent[] = []): Promise<PayoutDoc | null> {
    const current = await this.find(id);
    if (current?.stage !== "open" || current.fence !== fence) return null;
    const set = { stage: "created" as const, amountCents, updatedAt: at, version: current.version + 1 };
    return this.payouts.findOneAndUpdate({ _id: id, stage: "open", fence, version: current.version }, withEvents({ $set: set }, [event({ ...current, ...set }), ...audit]));
  }

  async removeOpen(id: string, fence: number): Promise<void> {
    await this.payouts.deleteOne({ _id: id, stage: "open", fence });
  }

  async recordTransfer(id: string, transferId: string, at: string): Promise<void> {
    await this.payouts.findOneAndUpdate({ _id: id, transferId: null }, { $set: { transferId, updatedAt: at } });
  }

  async settle(
    id: string,
    stage: "paid" | "failed",
    failure: { code: string; reason: string } | null,
    at: string,
    event: (after: PayoutDoc) => DomainEvent,
  ): Promise<PayoutDoc | null> {
    const current = await this.find(id);
    if (current?.stage !== "created") return null;
    const set = { stage, failureCode: failure?.code ?? null, failureReason: failure?.reason ?? null, updatedAt: at, version: current.version + 1 };
    return this.payouts.findOneAndUpdate({ _id: id, stage: "created", version: current.version }, withEvents({ $set: set }, [event({ ...current, ...set })]));
  }

  list(merchantId: string, limit: number, after?: Pick<PayoutDoc, "_id" | "createdAt">): Promise<PayoutDoc[]> {
    const query: Filter = { merchantId, stage: { $ne: "open" } };
    if (after) query.$or = olderThan("createdAt", after);
    return this.payouts.find(query, { sort: { createdAt: -1, _id: -1 }, limit });
  }
}
