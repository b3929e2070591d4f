import { DuplicateKeyError, type Store } from "@payrail/store";
import type { SendBudgetsPort } from "../domain/ports/send-budgets.port.ts";

interface BudgetRecord {
  /** `<bucket>@<window start>`. */
  _id: string;
  count: number;
  expiresAt: string;
}

/** send_code counters, one document per bucket and window (`send_code_budgets`). */
export class SendBudgetRepository implements SendBudgetsPort {
  constructor(private readonly store: Store) {}

  private get budgets() {
    return this.store.collection<BudgetRecord>("send_code_budgets");
  }

  async ensureIndexes(): Promise<void> {
    await this.budgets.createIndex({ keys: { expiresAt: 1 }, name: "expires" });
  }

  async take(bucket: string, windowStart: string, limit: number, expiresAt: string): Promise<boolean> {
    const _id = `${bucket}@${windowStart}`;
    const counted = () => this.budgets.findOneAndUpdate({ _id, count: { $lt: limit } }, { $inc: { count: 1 } });
    if (await counted()) return true;
    try {
      // The window's first send (a full window is there already and refuses the insert).
      await this.budgets.insertOne({ _id, count: 1, expiresAt });
      return true;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      // Full, or another instance opened the window in between.
      return (await counted()) !== null;
    }
  }

  async giveBack(bucket: string, windowStart: string): Promise<void> {
    await this.budgets.findOneAndUpdate({ _id: `${bucket}@${windowStart}`, count: { $gt: 0 } }, { $inc: { count: -1 } });
  }

  async purge(now: string, max: number): Promise<number> {
    const ended = await this.budgets.find({ expiresAt: { $lt: now } }, { sort: { expiresAt: 1 }, limit: max });
    for (const doc of ended) await this.budgets.deleteOne({ _id: doc._id });
    return ended.length;
  }
}
