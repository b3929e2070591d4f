import { insertOrGet, type Filter, type Store } from "@payrail/store";
import type { TransactionsPort } from "../domain/ports/transactions.port.ts";
import type { TransactionDoc, TransactionStatus } from "../domain/transaction.entity.ts";

/** Transaction records (`_id` = transaction_uuid). */
export class TransactionRepository implements TransactionsPort {
  constructor(private readonly store: Store) {}

  private get transactions() {
    return this.store.collection<TransactionDoc>("transactions");
  }

  async ensureIndexes(): Promise<void> {
    await this.transactions.createIndex({ keys: { id: 1 }, unique: true, name: "id" });
    await this.transactions.createIndex({ keys: { processor_transaction_id: 1 }, name: "transfer" });
    await this.transactions.createIndex({ keys: { user_id: 1, id: -1 }, name: "user_newest" });
  }

  nextId(): Promise<number> {
    return this.store.nextSequence("transaction_id");
  }

  async insertOnce(doc: TransactionDoc): Promise<TransactionDoc> {
    return (await insertOrGet(this.transactions, doc)).doc;
  }

  findByUuid(transactionUuid: string): Promise<TransactionDoc | null> {
    return this.transactions.findOne({ _id: transactionUuid });
  }

  findByTransferId(transferId: string): Promise<TransactionDoc | null> {
    return this.transactions.findOne({ processor_transaction_id: transferId });
  }

  listForUser(userId: string, limit: number, checkout?: { number?: number; ref?: string }): Promise<TransactionDoc[]> {
    const filter: Filter = { user_id: userId };
    if (checkout?.number !== undefined) filter["checkout_id"] = checkout.number;
    if (checkout?.ref !== undefined) filter["checkoutRef"] = checkout.ref;
    return this.transactions.find(filter, { sort: { id: -1 }, limit });
  }

  settle(
    transactionUuid: string,
    status: Exclude<TransactionStatus, "pending">,
    error: string | null,
    at: string,
  ): Promise<TransactionDoc | null> {
    return this.transactions.findOneAndUpdate(
      { _id: transactionUuid, transaction_status: "pending" },
      { $set: { transaction_status: status, error, updated_at: at } },
    );
  }

  reservePayout(transactionUuid: string, payoutId: string, cents: number, amountCents: number): Promise<TransactionDoc | null> {
    const payout = `refundPayouts.${payoutId}`;
    return this.transactions.findOneAndUpdate(
      {
        _id: transactionUuid,
        [payout]: null,
        // `null` also matches the missing sum of a record no payout touched yet.
        $or: [{ refundReservedCents: null }, { refundReservedCents: { $lte: amountCents - cents } }],
      },
      { $set: { [payout]: "live" }, $inc: { refundReservedCents: cents } },
    );
  }

  settlePayout(
    transactionUuid: string,
    payoutId: string,
    cents: number,
    outcome: "failed" | "completed",
    at: string,
  ): Promise<TransactionDoc | null> {
    const payout = `refundPayouts.${payoutId}`;
    const sum: Record<string, number> = outcome === "failed" ? { refundReservedCents: -cents } : { amountRefundedCents: cents };
    return this.transactions.findOneAndUpdate(
      { _id: transactionUuid, [payout]: "live" },
      { $set: { [payout]: outcome, updated_at: at }, $inc: sum },
    );
  }
}
