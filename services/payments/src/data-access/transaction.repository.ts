import type { DomainEvent } from "@payrail/contracts";
import { insertOrGet, insertWithEvents, olderThan, SequenceBlocks, withEvents, within, type Filter, type Store } from "@payrail/store";
import type { TransactionChange, TransactionsPort } from "../domain/transactions/ports/transactions.port.ts";
import type { TransactionDoc, TransactionStatus } from "../domain/transactions/transaction.entity.ts";

export const TRANSACTIONS_COLLECTION = "transactions";

/** Transaction records (`_id` = transaction_uuid); their events travel in their outbox. */
export class TransactionRepository implements TransactionsPort {
  private readonly ids: SequenceBlocks;

  /**
   * `idBlock`: ids reserved per counter write (docs/decisions/0016-embedded-store.md, "Sequence numbers in blocks").
   * More than 1 only where one process owns the store: ids order a consumer's records ("newest
   * first"), and blocks of two instances would interleave.
   */
  constructor(
    private readonly store: Store,
    idBlock = 1,
  ) {
    this.ids = new SequenceBlocks(store, "transaction_id", idBlock);
  }

  private get transactions() {
    return this.store.collection<TransactionDoc>(TRANSACTIONS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.transactions.createIndex({ keys: { id: 1 }, unique: true, name: "id" });
    await this.transactions.createIndex({ keys: { processor_transaction_id: 1 }, name: "transfer" });
    await this.transactions.createIndex({ keys: { user_id: 1, id: -1 }, name: "user_newest" });
    await this.transactions.createIndex({ keys: { transaction_status: 1, updated_at: 1 }, name: "status_updated" });
    // Return rates: debits by creation, returns by group and when they were learnt.
    await this.transactions.createIndex({ keys: { merchantId: 1, created_at: 1 }, name: "merchant_created" });
    await this.transactions.createIndex({ keys: { merchantId: 1, returnLearntAt: 1 }, name: "merchant_returns" });
    await this.transactions.createIndex({ keys: { merchantId: 1, returnGroup: 1, returnLearntAt: 1 }, name: "merchant_return_groups" });
    // Fraud screening (across merchants): debits and returns of one bank account, debits of one consumer.
    await this.transactions.createIndex({ keys: { sourceFingerprint: 1, created_at: 1 }, name: "account_created" });
    await this.transactions.createIndex({ keys: { sourceFingerprint: 1, returnLearntAt: 1 }, name: "account_returns" });
    await this.transactions.createIndex({ keys: { user_id: 1, created_at: 1 }, name: "user_created" });
    // transactions.csv: the merchant's records newest first, then by id.
    await this.transactions.createIndex({ keys: { merchantId: 1, created_at: -1, _id: -1 }, name: "merchant_newest" });
  }

  listForMerchant(merchantId: string, window: { from?: string | undefined; to?: string | undefined }, limit: number, after?: Pick<TransactionDoc, "_id" | "created_at">): Promise<TransactionDoc[]> {
    const filter: Filter = { merchantId };
    const created = within(window);
    if (created) filter["created_at"] = created;
    if (after) filter.$or = olderThan("created_at", after);
    return this.transactions.find(filter, { sort: { created_at: -1, _id: -1 }, limit });
  }

  nextId(): Promise<number> {
    return this.ids.take();
  }

  insertOnce(doc: TransactionDoc, event: DomainEvent): Promise<{ inserted: boolean; doc: TransactionDoc }> {
    return insertOrGet(this.transactions, insertWithEvents(doc, [event]));
  }

  findByUuid(transactionUuid: string): Promise<TransactionDoc | null> {
    return this.transactions.findOne({ _id: transactionUuid });
  }

  findByTransferId(transferId: string): Promise<TransactionDoc | null> {
    return this.transactions.findOne({ processor_transaction_id: transferId });
  }

  listForUser(userId: string, limit: number, only?: { number?: number; ref?: string; beforeId?: number; merchantId?: string | undefined }): Promise<TransactionDoc[]> {
    const filter: Filter = { user_id: userId };
    // Served by user_newest: one consumer's records are few, and only a sandbox token filters so.
    if (only?.merchantId !== undefined) filter["merchantId"] = only.merchantId;
    if (only?.number !== undefined) filter["checkout_id"] = only.number;
    if (only?.ref !== undefined) filter["checkoutRef"] = only.ref;
    if (only?.beforeId !== undefined) filter["id"] = { $lt: only.beforeId };
    return this.transactions.find(filter, { sort: { id: -1 }, limit });
  }

  settle(transactionUuid: string, expected: { status: TransactionStatus; version: number | undefined }, change: TransactionChange, event: DomainEvent): Promise<TransactionDoc | null> {
    const { at, ...fields } = change;
    return this.transactions.findOneAndUpdate(
      // `null` also matches the missing version of a record written before events.
      { _id: transactionUuid, transaction_status: expected.status, version: expected.version ?? null },
      withEvents({ $set: { ...fields, transaction_status: change.status, updated_at: at, version: (expected.version ?? 0) + 1 } }, [event]),
    );
  }

  reservePayout(transactionUuid: string, payoutId: string, cents: number, amountCents: number): Promise<TransactionDoc | null> {
    const payout = `refundPayouts.${payoutId}`;
    return this.transactions.findOneAndUpdate(
      {
        _id: transactionUuid,
        transaction_status: "completed",
        [payout]: null,
        // `null` also matches the missing sum of a record no payout touched yet.
        $or: [{ refundReservedCents: null }, { refundReservedCents: { $lte: amountCents - cents } }],
      },
      // Counted in `version` (no event), so a change that writes one sees this one happened.
      { $set: { [payout]: "live" }, $inc: { refundReservedCents: cents, version: 1 } },
    );
  }

  settlePayout(
    transactionUuid: string,
    expectedVersion: number | undefined,
    payout: { id: string; cents: number; outcome: "failed" | "completed" },
    at: string,
    event: DomainEvent,
  ): Promise<TransactionDoc | null> {
    const field = `refundPayouts.${payout.id}`;
    const sum: Record<string, number> = payout.outcome === "failed" ? { refundReservedCents: -payout.cents } : { amountRefundedCents: payout.cents };
    return this.transactions.findOneAndUpdate(
      { _id: transactionUuid, [field]: "live", version: expectedVersion ?? null },
      withEvents({ $set: { [field]: payout.outcome, updated_at: at, version: (expectedVersion ?? 0) + 1 }, $inc: sum }, [event]),
    );
  }

  pendingBetween(after: string, before: string, limit: number): Promise<TransactionDoc[]> {
    return this.transactions.find({ transaction_status: "pending", updated_at: { $gt: after, $lt: before } }, { sort: { transaction_status: 1, updated_at: 1 }, limit });
  }

  countDebits(merchantId: string, since: string): Promise<number> {
    return this.transactions.countDocuments({ merchantId, created_at: { $gte: since } });
  }

  finalSince(status: "completed" | "returned", since: string, limit: number, after?: { updatedAt: string; id: string }): Promise<TransactionDoc[]> {
    const filter: Filter = after
      ? { transaction_status: status, updated_at: { $gte: after.updatedAt }, $or: [{ updated_at: { $gt: after.updatedAt } }, { _id: { $gt: after.id } }] }
      : { transaction_status: status, updated_at: { $gte: since } };
    return this.transactions.find(filter, { sort: { transaction_status: 1, updated_at: 1, _id: 1 }, limit });
  }

  countReturns(merchantId: string, since: string, group?: "unauthorized" | "administrative"): Promise<number> {
    return this.transactions.countDocuments(group ? { merchantId, returnGroup: group, returnLearntAt: { $gte: since } } : { merchantId, returnLearntAt: { $gte: since } });
  }

  countFromAccount(fingerprint: string, since: string, until?: string): Promise<number> {
    return this.transactions.countDocuments({ sourceFingerprint: fingerprint, created_at: until ? { $gte: since, $lte: until } : { $gte: since } });
  }

  countForUser(userId: string, since: string, until: string): Promise<number> {
    return this.transactions.countDocuments({ user_id: userId, created_at: { $gte: since, $lte: until } });
  }

  countAccountReturns(fingerprint: string, since: string): Promise<number> {
    return this.transactions.countDocuments({ sourceFingerprint: fingerprint, returnLearntAt: { $gte: since } });
  }

  countDebitsBetween(merchantId: string, from: string, to: string): Promise<number> {
    return this.transactions.countDocuments({ merchantId, created_at: { $gte: from, $lt: to } });
  }

  countReturnsBetween(merchantId: string, from: string, to: string, group?: "unauthorized"): Promise<number> {
    return this.transactions.countDocuments({ merchantId, ...(group ? { returnGroup: group } : {}), returnLearntAt: { $gte: from, $lt: to } });
  }

  insertHeld(doc: TransactionDoc): Promise<{ inserted: boolean; doc: TransactionDoc }> {
    return insertOrGet(this.transactions, doc);
  }

  release(transactionUuid: string, expectedVersion: number | undefined, set: Partial<TransactionDoc>, event: DomainEvent): Promise<TransactionDoc | null> {
    return this.transactions.findOneAndUpdate(
      { _id: transactionUuid, transaction_status: "in_review", version: expectedVersion ?? null },
      withEvents({ $set: set as Record<string, unknown>, $inc: { version: 1 } }, [event]),
    );
  }
}
