import { DuplicateKeyError, type Store } from "@payrail/store";
import type { SendBudgetsPort } from "../domain/ports/send-budgets.port.ts";

interface BudgetRecord {
  /** `<bucket>@<slot start>`. */
  _id: string;
  count: number;
  expiresAt: string;
}

const idOf = (bucket: string, slot: string) => `${bucket}@${slot}`;

/** send_code counters, one document per bucket and slot of the sliding window (`send_code_budgets`). */
export class SendBudgetRepository implements SendBudgetsPort {
  constructor(private readonly store: Store) {}

  private get budgets() {
    return this.store.collection<BudgetRecord>("send_code_budgets");
  }

  async ensureIndexes(): Promise<void> {
    await this.budgets.createIndex({ keys: { expiresAt: 1 }, name: "expires" });
  }

  async counts(bucket: string, slots: readonly string[]): Promise<Map<string, number>> {
    const found = await this.budgets.find({ _id: { $in: slots.map((slot) => idOf(bucket, slot)) } });
    return new Map(found.map((doc) => [doc._id.slice(bucket.length + 1), doc.count]));
  }

  async take(bucket: string, slot: string, limit: number, expiresAt: string): Promise<boolean> {
    const _id = idOf(bucket, slot);
    const counted = () => this.budgets.findOneAndUpdate({ _id, count: { $lt: limit } }, { $inc: { count: 1 } });
    if (await counted()) return true;
    try {
      // The slot's first send (a full slot is there already and refuses the insert).
      await this.budgets.insertOne({ _id, count: 1, expiresAt });
      return true;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      // Full, or another instance opened the slot in between.
      return (await counted()) !== null;
    }
  }

  async giveBack(bucket: string, slot: string): Promise<void> {
    await this.budgets.findOneAndUpdate({ _id: idOf(bucket, slot), count: { $gt: 0 } }, { $inc: { count: -1 } });
  }

  async purge(now: string, max: number): Promise<number> {
    const ended = await this.budgets.find({ expiresAt: { $lt: now } }, { sort: { expiresAt: 1 }, limit: max });
    for (const doc of ended) await this.budgets.deleteOne({ _id: doc._id });
    return ended.length;
  }
}
