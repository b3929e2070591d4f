import { centsWithin, insertIfAbsent, olderThan, widenIndex, within, type Filter, type Store } from "@payrail/store";
import type { BalanceTransactionDoc } from "../domain/balance-transaction.entity.ts";
import type { BalanceTransactionFilter, BalanceTransactionsPort } from "../domain/ports/books.port.ts";

export const BALANCE_TRANSACTIONS_COLLECTION = "balance_transactions";

/** The merchants' balance transactions (`_id` derived from the movement). */
export class BalanceTransactionRepository implements BalanceTransactionsPort {
  constructor(private readonly store: Store) {}

  private get rows() {
    return this.store.collection<BalanceTransactionDoc>(BALANCE_TRANSACTIONS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    // The list and the exports, with and without from/to: newest first, then by id. Each ends in the
    // signed amount (docs/decisions/0055-amount-filters.md): after the unique id it changes no order,
    // and an amount range is checked on the index's keys before any fetch. Each replaces its index
    // without the amount.
    await widenIndex(this.rows, { keys: { merchantId: 1, createdAt: -1, _id: -1, amountCents: 1 }, name: "merchant_newest_amount" }, "merchant_newest");
    await widenIndex(this.rows, { keys: { merchantId: 1, type: 1, createdAt: -1, _id: -1, amountCents: 1 }, name: "merchant_type_newest_amount" }, "merchant_type_newest");
    await widenIndex(
      this.rows,
      { keys: { merchantId: 1, payoutId: 1, createdAt: -1, _id: -1, amountCents: 1 }, name: "merchant_payout_newest_amount" },
      "merchant_payout_newest",
    );
    // The balance's pending part: the rows not yet available.
    await this.rows.createIndex({ keys: { merchantId: 1, availableAt: 1 }, name: "merchant_available_at" });
  }

  insert(doc: BalanceTransactionDoc): Promise<boolean> {
    return insertIfAbsent(this.rows, doc);
  }

  find(id: string): Promise<BalanceTransactionDoc | null> {
    return this.rows.findOne({ _id: id });
  }

  async markCounted(id: string): Promise<void> {
    await this.rows.findOneAndUpdate({ _id: id, counted: false }, { $set: { counted: true } });
  }

  list(filter: BalanceTransactionFilter, limit: number, after?: Pick<BalanceTransactionDoc, "_id" | "createdAt">): Promise<BalanceTransactionDoc[]> {
    const query: Filter = { merchantId: filter.merchantId };
    if (filter.type !== undefined) query["type"] = filter.type;
    if (filter.payoutId !== undefined) query["payoutId"] = filter.payoutId;
    const created = within(filter);
    if (created) query["createdAt"] = created;
    const amount = centsWithin(filter);
    if (amount) query["amountCents"] = amount;
    if (after) query.$or = olderThan("createdAt", after);
    return this.rows.find(query, { sort: { createdAt: -1, _id: -1 }, limit });
  }

  pendingAt(merchantId: string, now: string): Promise<BalanceTransactionDoc[]> {
    return this.rows.find({ merchantId, availableAt: { $gt: now } });
  }

  unpaid(merchantId: string, cutoff: string, limit: number, after?: Pick<BalanceTransactionDoc, "_id" | "createdAt">): Promise<BalanceTransactionDoc[]> {
    // On merchant_payout_newest_amount: a merchant's rows in no payout are the few since its last one.
    const query: Filter = { merchantId, payoutId: null, availableAt: { $lte: cutoff } };
    if (after) query.$or = olderThan("createdAt", after);
    return this.rows.find(query, { sort: { createdAt: -1, _id: -1 }, limit });
  }

  async assign(id: string, payoutId: string, fence: number): Promise<boolean> {
    const after = await this.rows.findOneAndUpdate({ _id: id, payoutId: null, ...notFencedAbove(fence) }, { $set: { payoutId, fence } });
    return after !== null || (await this.find(id))?.payoutId === payoutId;
  }

  async refence(id: string, payoutId: string, fence: number): Promise<boolean> {
    return (await this.rows.findOneAndUpdate({ _id: id, payoutId, ...notFencedAbove(fence) }, { $set: { fence } })) !== null;
  }

  async unassign(id: string, payoutId: string, fence: number): Promise<void> {
    await this.rows.findOneAndUpdate({ _id: id, payoutId, ...notFencedAbove(fence) }, { $set: { payoutId: null, fence } });
  }
}

/** A row no payout run with a larger token than `fence` has moved (rows no run moved have none). */
function notFencedAbove(fence: number): Filter {
  return { $or: [{ fence: null }, { fence: { $lte: fence } }] };
}
