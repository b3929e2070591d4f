import { insertOrGet, type Store } from "@payrail/store";
import type { TransferAttemptsPort } from "../domain/ports/transfer-attempts.port.ts";
import type { AttemptProgress, TransferAttemptRecord } from "../domain/transfer-attempt.entity.ts";

/** Transfer attempts, one per checkout (`_id` = checkout id). */
export class TransferAttemptRepository implements TransferAttemptsPort {
  constructor(private readonly store: Store) {}

  private get attempts() {
    return this.store.collection<TransferAttemptRecord>("transfer_attempts");
  }

  async findOrCreate(record: TransferAttemptRecord): Promise<TransferAttemptRecord> {
    // The _id is the checkout id: when a racing call created it first, its attempt is the one.
    return (await insertOrGet(this.attempts, record)).doc;
  }

  find(checkoutId: string): Promise<TransferAttemptRecord | null> {
    return this.attempts.findOne({ _id: checkoutId });
  }

  acquireLease(checkoutId: string, leaseId: string, now: string, until: string): Promise<TransferAttemptRecord | null> {
    return this.attempts.findOneAndUpdate(
      { _id: checkoutId, completed: false, $or: [{ leaseId: null }, { leaseUntil: { $lt: now } }] },
      { $set: { leaseId, leaseUntil: until } },
    );
  }

  saveProgress(checkoutId: string, leaseId: string, progress: AttemptProgress, at: string): Promise<TransferAttemptRecord | null> {
    return this.attempts.findOneAndUpdate({ _id: checkoutId, leaseId }, { $set: { ...progress, updatedAt: at } });
  }

  async releaseLease(checkoutId: string, leaseId: string): Promise<void> {
    await this.attempts.findOneAndUpdate({ _id: checkoutId, leaseId }, { $set: { leaseId: null, leaseUntil: null } });
  }
}
