import { DuplicateKeyError, type Store } from "@payrail/store";
import type { DayTotal, DayTotalEntry, DayTotalsPort } from "../domain/payment-stats/ports/day-totals.port.ts";

interface DayTotalDoc extends Omit<DayTotal, "returned" | "returnedCents"> {
  /** Absent on a day whose debits were all counted before returns were counted: none then. */
  returned?: number;
  returnedCents?: number;
  /** `${merchantId}:${day}`. */
  _id: string;
  merchantId: string;
  /** Each debit counted on this day, by transaction_uuid, and as what: the idempotence guard. */
  payments: Record<string, DayTotalEntry["outcome"]>;
}

/** A write that loses to another one's first insert of the day reads again; a few tries at most. */
const TRIES = 5;

/** Per-merchant per-day settled totals (`payment_day_totals`) and the backfill's mark. */
export class DayTotalsRepository implements DayTotalsPort {
  constructor(private readonly store: Store) {}

  private get days() {
    return this.store.collection<DayTotalDoc>("payment_day_totals");
  }

  private get marks() {
    return this.store.collection<{ _id: string; at: string }>("payment_day_totals_backfill");
  }

  async ensureIndexes(): Promise<void> {
    // The overview's read: a merchant's last 30 days.
    await this.days.createIndex({ keys: { merchantId: 1, day: 1 }, name: "merchant_day" });
  }

  async record(entry: DayTotalEntry): Promise<void> {
    const day = entry.createdAt.slice(0, 10);
    const _id = `${entry.merchantId}:${day}`;
    const path = `payments.${entry.transactionUuid}`;
    const onInsert = { merchantId: entry.merchantId, day };
    const returned = { returned: 1, returnedCents: entry.amountCents };
    for (let i = 0; i < TRIES; i++) {
      if (entry.outcome === "returned") {
        // A counted settlement is taken back; one never counted is marked so it never will be.
        const undone = await this.days.findOneAndUpdate({ _id, [path]: "settled" }, { $set: { [path]: "returned" }, $inc: { settled: -1, settledCents: -entry.amountCents, ...returned } });
        if (undone) return;
      }
      const update =
        entry.outcome === "settled"
          ? { $set: { [path]: "settled" }, $inc: { settled: 1, settledCents: entry.amountCents }, $setOnInsert: onInsert }
          : { $set: { [path]: "returned" }, $inc: { settled: 0, settledCents: 0, ...returned }, $setOnInsert: onInsert };
      try {
        await this.days.findOneAndUpdate({ _id, [path]: { $exists: false } }, update, { upsert: true });
        return;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
      // Either the day counted this debit already (done, unless a return still has to undo it),
      // or another debit's first write of the day won the insert: read again.
      const counted = (await this.days.findOne({ _id }))?.payments?.[entry.transactionUuid];
      if (counted === entry.outcome || counted === "returned") return;
    }
    throw new Error(`the day totals of ${_id} kept changing; the debit is counted at its next notice or by the reconciler`);
  }

  async since(merchantId: string, fromDay: string): Promise<DayTotal[]> {
    const docs = await this.days.find({ merchantId, day: { $gte: fromDay } }, { sort: { day: 1 } });
    return docs.map((d) => ({ day: d.day, settled: d.settled, settledCents: d.settledCents, returned: d.returned ?? 0, returnedCents: d.returnedCents ?? 0 }));
  }

  async backfilled(): Promise<boolean> {
    return (await this.marks.findOne({ _id: "backfill" })) !== null;
  }

  async markBackfilled(at: string): Promise<void> {
    await this.marks.findOneAndUpdate({ _id: "backfill" }, { $setOnInsert: { at } }, { upsert: true }).catch((err: unknown) => {
      if (!(err instanceof DuplicateKeyError)) throw err;
    });
  }
}
