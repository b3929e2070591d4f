import type { DomainEvent } from "@payrail/contracts";
import { withEvents, type Filter, type Store } from "@payrail/store";
import type { SubscriptionSchedulesPort } from "../domain/renewals/ports/subscription-schedules.port.ts";
import type { TransferAttemptRecord } from "../domain/transfers/transfer-attempt.entity.ts";
import { TRANSFER_ATTEMPTS_COLLECTION } from "./transfer-attempt.repository.ts";

/** The renewal schedules, kept on the subscriptions' transfer attempts (`_id` = checkout id). */
export class SubscriptionScheduleRepository implements SubscriptionSchedulesPort {
  constructor(private readonly store: Store) {}

  private get attempts() {
    return this.store.collection<TransferAttemptRecord>(TRANSFER_ATTEMPTS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    // The scheduler's query: a range on the due time, earliest first.
    await this.attempts.createIndex({ keys: { nextChargeAt: 1 }, name: "next_charge_at" });
    // The upcoming-charge pass: a range on when a renewal's notice is next looked at, earliest first.
    await this.attempts.createIndex({ keys: { noticeDueAt: 1 }, name: "notice_due_at" });
  }

  async noticesDue(by: string, limit: number): Promise<string[]> {
    const due = await this.attempts.find({ noticeDueAt: { $lte: by } }, { sort: { noticeDueAt: 1 }, limit });
    return due.map((a) => a._id);
  }

  async moveNotice(checkoutId: string, from: string, to: string | null): Promise<boolean> {
    return (await this.attempts.findOneAndUpdate({ _id: checkoutId, noticeDueAt: from }, { $set: { noticeDueAt: to } })) !== null;
  }

  async due(by: string, limit: number): Promise<string[]> {
    const due = await this.attempts.find({ nextChargeAt: { $lte: by } }, { sort: { nextChargeAt: 1 }, limit });
    return due.map((a) => a._id);
  }

  claim(checkoutId: string, leaseId: string, by: string, now: string, until: string): Promise<TransferAttemptRecord | null> {
    return this.attempts.findOneAndUpdate(
      {
        _id: checkoutId,
        nextChargeAt: { $lte: by },
        $and: [
          { $or: [{ renewalLeaseId: null }, { renewalLeaseUntil: { $lt: now } }] },
          // Not while the consumer is changing the account it draws on.
          { $or: [{ relinkLeaseId: null }, { relinkLeaseUntil: { $lt: now } }] },
        ],
      },
      { $set: { renewalLeaseId: leaseId, renewalLeaseUntil: until } },
    );
  }

  async renewLease(checkoutId: string, leaseId: string, until: string): Promise<boolean> {
    return (await this.attempts.findOneAndUpdate({ _id: checkoutId, renewalLeaseId: leaseId }, { $set: { renewalLeaseUntil: until } })) !== null;
  }

  markSending(checkoutId: string, leaseId: string, until: string): Promise<TransferAttemptRecord | null> {
    return this.attempts.findOneAndUpdate({ _id: checkoutId, renewalLeaseId: leaseId, subscriptionCancelledAt: null }, { $set: { "charge.sendingUntil": until } });
  }

  saveUnderLease(checkoutId: string, leaseId: string, set: Record<string, unknown>): Promise<TransferAttemptRecord | null> {
    return this.attempts.findOneAndUpdate({ _id: checkoutId, renewalLeaseId: leaseId }, { $set: set });
  }

  async finishCharge(checkoutId: string, leaseId: string, transactionUuid: string): Promise<TransferAttemptRecord | null> {
    const done = await this.attempts.findOneAndUpdate(
      { _id: checkoutId, renewalLeaseId: leaseId, "charge.transactionUuid": transactionUuid },
      { $set: { "charge.recorded": true, nextChargeAt: null, renewalLeaseId: null, renewalLeaseUntil: null } },
    );
    if (!done) await this.attempts.findOneAndUpdate({ _id: checkoutId, renewalLeaseId: leaseId }, { $set: { renewalLeaseId: null, renewalLeaseUntil: null } });
    return done;
  }

  change(
    checkoutId: string,
    expected: { version: number | undefined; chargeUuid: string | null | undefined },
    set: Partial<TransferAttemptRecord>,
    event: DomainEvent | null,
    audit: readonly DomainEvent[] = [],
  ): Promise<TransferAttemptRecord | null> {
    const filter: Filter = {
      _id: checkoutId,
      // `null` also matches the missing version of a subscription that never changed.
      subscriptionVersion: expected.version ?? null,
      ...(expected.chargeUuid === undefined ? { charge: null } : expected.chargeUuid === null ? { period: null } : { "charge.transactionUuid": expected.chargeUuid }),
    };
    const update = { $set: set as Record<string, unknown> };
    return this.attempts.findOneAndUpdate(filter, withEvents(update, [...(event ? [event] : []), ...audit]));
  }

  moveClock(checkoutId: string, to: string): Promise<TransferAttemptRecord | null> {
    return this.attempts.findOneAndUpdate({ _id: checkoutId, $or: [{ clockAt: null }, { clockAt: { $lte: to } }] }, { $set: { clockAt: to } });
  }

  async dueAfterReview(checkoutId: string, reviewId: string, at: string): Promise<boolean> {
    return (await this.attempts.findOneAndUpdate({ _id: checkoutId, "charge.reviewId": reviewId, "charge.transferId": null }, { $set: { nextChargeAt: at } })) !== null;
  }
}
