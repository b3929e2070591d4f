import { DuplicateKeyError, type Store } from "@payrail/store";
import { weekOf, type AmountStatsPort } from "../domain/fraud/ports/amount-stats.port.ts";

interface WeekDoc {
  /** `${merchantId}:${week}`. */
  _id: string;
  merchantId: string;
  week: number;
  count: number;
  sum: number;
  sumSquares: number;
}

/** `payment_amount_weeks`: one upserted $inc per settled debit. */
export class AmountStatsRepository implements AmountStatsPort {
  constructor(private readonly store: Store) {}

  private get weeks() {
    return this.store.collection<WeekDoc>("payment_amount_weeks");
  }

  async ensureIndexes(): Promise<void> {
    await this.weeks.createIndex({ keys: { merchantId: 1, week: 1 }, name: "merchant_week" });
  }

  async add(merchantId: string, createdAt: string, amountCents: number): Promise<void> {
    const week = weekOf(createdAt);
    const update = { $inc: { count: 1, sum: amountCents, sumSquares: amountCents * amountCents }, $setOnInsert: { merchantId, week } };
    try {
      await this.weeks.findOneAndUpdate({ _id: `${merchantId}:${week}` }, update, { upsert: true });
    } catch (err) {
      // Two first debits of a week raced the insert: the loser's $inc goes to the now-existing week.
      if (!(err instanceof DuplicateKeyError)) throw err;
      await this.weeks.findOneAndUpdate({ _id: `${merchantId}:${week}` }, update, { upsert: true });
    }
  }

  async since(merchantId: string, since: string): Promise<{ count: number; sum: number; sumSquares: number }> {
    const docs = await this.weeks.find({ merchantId, week: { $gte: weekOf(since) } }, { sort: { week: 1 } });
    return docs.reduce((t, d) => ({ count: t.count + d.count, sum: t.sum + d.sum, sumSquares: t.sumSquares + d.sumSquares }), { count: 0, sum: 0, sumSquares: 0 });
  }
}
