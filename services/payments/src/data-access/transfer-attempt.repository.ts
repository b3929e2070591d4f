import type { DomainEvent } from "@payrail/contracts";
import { insertOrGet, withEvents, type Filter, type Store } from "@payrail/store";
import type { TransferAttemptsPort } from "../domain/transfers/ports/transfer-attempts.port.ts";
import type { AttemptProgress, TransferAttemptRecord } from "../domain/transfers/transfer-attempt.entity.ts";

export const TRANSFER_ATTEMPTS_COLLECTION = "transfer_attempts";

/** Transfer attempts, one per checkout (`_id` = checkout id); a subscription's events travel in their outbox. */
export class TransferAttemptRepository implements TransferAttemptsPort {
  constructor(private readonly store: Store) {}

  private get attempts() {
    return this.store.collection<TransferAttemptRecord>(TRANSFER_ATTEMPTS_COLLECTION);
  }

  async findOrCreate(record: TransferAttemptRecord): Promise<TransferAttemptRecord> {
    // The _id is the checkout id: when a racing call created it first, its attempt is the one.
    return (await insertOrGet(this.attempts, record)).doc;
  }

  find(checkoutId: string): Promise<TransferAttemptRecord | null> {
    return this.attempts.findOne({ _id: checkoutId });
  }

  subscriptionsOf(userId: string, limit: number, beforeNumber?: number, merchantId?: string): Promise<TransferAttemptRecord[]> {
    const filter: Filter = {
      userId,
      isSubscription: true,
      ...(beforeNumber === undefined ? {} : { checkoutNumber: { $lt: beforeNumber } }),
      ...(merchantId === undefined ? {} : { merchantId }),
    };
    return this.attempts.find(filter, { sort: { checkoutNumber: -1 }, limit });
  }

  acquireLease(checkoutId: string, leaseId: string, now: string, until: string): Promise<TransferAttemptRecord | null> {
    return this.attempts.findOneAndUpdate(
      { _id: checkoutId, completed: false, $or: [{ leaseId: null }, { leaseUntil: { $lt: now } }] },
      { $set: { leaseId, leaseUntil: until } },
    );
  }

  async renewLease(checkoutId: string, leaseId: string, until: string): Promise<boolean> {
    return (await this.attempts.findOneAndUpdate({ _id: checkoutId, leaseId }, { $set: { leaseUntil: until } })) !== null;
  }

  saveProgress(checkoutId: string, leaseId: string, progress: AttemptProgress, at: string): Promise<TransferAttemptRecord | null> {
    return this.attempts.findOneAndUpdate({ _id: checkoutId, leaseId }, { $set: { ...progress, updatedAt: at } });
  }

  complete(checkoutId: string, leaseId: string, transfer: Pick<TransferAttemptRecord, "transferId" | "initiatedAt">, at: string): Promise<TransferAttemptRecord | null> {
    const { transferId, initiatedAt } = transfer;
    return this.attempts.findOneAndUpdate({ _id: checkoutId, leaseId }, { $set: { transferId, initiatedAt, completed: true, leaseId: null, leaseUntil: null, updatedAt: at } });
  }

  cancelSubscription(checkoutId: string, at: string, version: number, events: readonly DomainEvent[]): Promise<TransferAttemptRecord | null> {
    return this.attempts.findOneAndUpdate(
      // On the version as read: a renewal settling in between makes the cancel read again.
      {
        _id: checkoutId,
        isSubscription: true,
        subscriptionCancelledAt: null,
        subscriptionVersion: version === 1 ? null : version - 1,
        // Not while a renewal charge is being sent (between its last check and its transfer id):
        // a cancel that answers success is never followed by a debit.
        $or: [{ charge: null }, { "charge.transferId": { $ne: null } }, { "charge.sendingUntil": null }, { "charge.sendingUntil": { $lt: at } }],
      },
      withEvents({ $set: { subscriptionStatus: "cancelled", subscriptionCancelledAt: at, subscriptionVersion: version, updatedAt: at } }, events),
    );
  }

  acquireRelinkLease(checkoutId: string, leaseId: string, now: string, until: string): Promise<TransferAttemptRecord | null> {
    return this.attempts.findOneAndUpdate(
      { _id: checkoutId, subscriptionCancelledAt: null, $or: [{ relinkLeaseId: null }, { relinkLeaseUntil: { $lt: now } }] },
      { $set: { relinkLeaseId: leaseId, relinkLeaseUntil: until } },
    );
  }

  async releaseRelinkLease(checkoutId: string, leaseId: string): Promise<void> {
    await this.attempts.findOneAndUpdate({ _id: checkoutId, relinkLeaseId: leaseId }, { $set: { relinkLeaseId: null, relinkLeaseUntil: null } });
  }

  relink(checkoutId: string, leaseId: string, subscriptionVersion: number | undefined, set: Partial<TransferAttemptRecord>, events: DomainEvent[]): Promise<TransferAttemptRecord | null> {
    return this.attempts.findOneAndUpdate(
      {
        _id: checkoutId,
        relinkLeaseId: leaseId,
        subscriptionCancelledAt: null,
        // `null` also matches the missing version of a subscription that never changed.
        subscriptionVersion: subscriptionVersion ?? null,
        $or: [{ charge: null }, { "charge.transferId": { $ne: null } }],
      },
      withEvents({ $set: set as Record<string, unknown> }, events),
    );
  }

  async releaseLease(checkoutId: string, leaseId: string): Promise<void> {
    await this.attempts.findOneAndUpdate({ _id: checkoutId, leaseId }, { $set: { leaseId: null, leaseUntil: null } });
  }

  async ensureIndexes(): Promise<void> {
    // The reconciler's query: stalled attempts, oldest first.
    await this.attempts.createIndex({ keys: { completed: 1, updatedAt: 1 }, name: "stalled" });
    // The consumer portal's subscriptions: one consumer's, newest checkout first.
    await this.attempts.createIndex({ keys: { userId: 1, isSubscription: 1, checkoutNumber: -1 }, name: "user_subscriptions" });
    // A blocked account's checkouts, across merchants.
    await this.attempts.createIndex({ keys: { fundingFingerprint: 1, _id: 1 }, name: "funding_fingerprint" });
  }

  onAccount(fingerprint: string, after: string, limit: number): Promise<TransferAttemptRecord[]> {
    return this.attempts.find({ fundingFingerprint: fingerprint, _id: { $gt: after } }, { sort: { fundingFingerprint: 1, _id: 1 }, limit });
  }

  markAccountBlocked(
    checkoutId: string,
    expected: { fingerprint: string; subscriptionVersion: number | undefined },
    set: Partial<TransferAttemptRecord>,
    events: DomainEvent[],
  ): Promise<TransferAttemptRecord | null> {
    return this.attempts.findOneAndUpdate(
      // `null` also matches the missing version of a subscription that never changed.
      { _id: checkoutId, fundingFingerprint: expected.fingerprint, accountBlockedAt: null, subscriptionVersion: expected.subscriptionVersion ?? null },
      withEvents({ $set: set as Record<string, unknown> }, events),
    );
  }

  stalled(before: string, limit: number): Promise<TransferAttemptRecord[]> {
    return this.attempts.find(
      {
        completed: false,
        updatedAt: { $lt: before },
        fundingSourceUrl: { $ne: null },
        $or: [{ reconciledAt: null }, { reconciledAt: { $lt: before } }],
      },
      { sort: { completed: 1, updatedAt: 1 }, limit },
    );
  }

  async markReconciled(checkoutId: string, at: string): Promise<void> {
    await this.attempts.findOneAndUpdate({ _id: checkoutId, completed: false }, { $set: { reconciledAt: at } });
  }
}
