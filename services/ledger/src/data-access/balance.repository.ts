import { insertIfAbsent, type Store } from "@payrail/store";
import type { BalanceDoc } from "../domain/balance.entity.ts";
import type { BalancesPort } from "../domain/ports/books.port.ts";
import type { BalanceTransactionDoc } from "../domain/balance-transaction.entity.ts";

export const BALANCES_COLLECTION = "balances";

/** One running total per merchant (`_id` = the merchant id): found by `_id` only, so no index of its own. */
export class BalanceRepository implements BalancesPort {
  constructor(private readonly store: Store) {}

  private get balances() {
    return this.store.collection<BalanceDoc>(BALANCES_COLLECTION);
  }

  find(merchantId: string): Promise<BalanceDoc | null> {
    return this.balances.findOne({ _id: merchantId });
  }

  async open(merchantId: string, currency: string): Promise<void> {
    await insertIfAbsent(this.balances, { _id: merchantId, totalCents: 0, seq: 0, lastBtx: null, currency });
  }

  async count(merchantId: string, seq: number, row: Pick<BalanceTransactionDoc, "_id" | "amountCents">): Promise<boolean> {
    const after = await this.balances.findOneAndUpdate({ _id: merchantId, seq }, { $inc: { totalCents: row.amountCents, seq: 1 }, $set: { lastBtx: row._id } });
    return after !== null;
  }

  async merchantsAfter(afterId: string, limit: number): Promise<string[]> {
    const page = await this.balances.find({ _id: { $gt: afterId } }, { sort: { _id: 1 }, limit });
    return page.map((b) => b._id);
  }
}
