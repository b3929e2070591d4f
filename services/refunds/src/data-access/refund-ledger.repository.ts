import { insertIfAbsent, type Store } from "@payrail/store";
import type { RefundHold, RefundLedger, RefundLedgersPort } from "../domain/ports/refund-ledgers.port.ts";

/** Refund ledgers, one per transaction (`_id` = transaction_uuid); holds keyed by refund id. */
export class RefundLedgerRepository implements RefundLedgersPort {
  constructor(private readonly store: Store) {}

  private get ledgers() {
    return this.store.collection<RefundLedger>("refund_ledgers");
  }

  async open(ledger: RefundLedger): Promise<void> {
    // A racing request opened it first: theirs is the same empty ledger.
    await insertIfAbsent(this.ledgers, ledger);
  }

  find(transactionUuid: string): Promise<RefundLedger | null> {
    return this.ledgers.findOne({ _id: transactionUuid });
  }

  async reserve(transactionUuid: string, refundId: string, hold: RefundHold, amountCents: number): Promise<boolean> {
    const reserved = await this.ledgers.findOneAndUpdate(
      { _id: transactionUuid, [`holds.${refundId}`]: null, reservedCents: { $lte: amountCents - hold.cents } },
      { $set: { [`holds.${refundId}`]: hold }, $inc: { reservedCents: hold.cents } },
    );
    return reserved !== null;
  }

  async markReturned(transactionUuid: string, at: string): Promise<void> {
    await this.ledgers.findOneAndUpdate({ _id: transactionUuid, returnedAt: null }, { $set: { returnedAt: at } });
  }

  async release(transactionUuid: string, refundId: string, attempt: number, cents: number): Promise<void> {
    await this.ledgers.findOneAndUpdate(
      { _id: transactionUuid, [`holds.${refundId}.attempt`]: attempt, [`holds.${refundId}.cents`]: cents },
      { $unset: { [`holds.${refundId}`]: true }, $inc: { reservedCents: -cents } },
    );
  }
}
