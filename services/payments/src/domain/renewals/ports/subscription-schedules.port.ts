import type { DomainEvent } from "@payrail/contracts";
import type { TransferAttemptRecord } from "../../transfers/transfer-attempt.entity.ts";

/**
 * The renewal side of a subscription's transfer attempt (its schedule, charge in flight and
 * lease). Every write is one conditional write; null answers mean another writer won.
 */
export interface SubscriptionSchedulesPort {
  /** Checkout ids of subscriptions with a charge due by `by`, earliest first (an index serves it). */
  due(by: string, limit: number): Promise<string[]>;
  /** Checkout ids of subscriptions whose upcoming-charge notice is to be looked at by `by`, earliest first (an index serves it). */
  noticesDue(by: string, limit: number): Promise<string[]>;
  /** Moves when the upcoming-charge notice is looked at (null: never), if it still stands at `from`: false when another writer moved it. */
  moveNotice(checkoutId: string, from: string, to: string | null): Promise<boolean>;
  /**
   * Takes the renewal lease of a subscription whose next charge is due by `by`, when nobody holds
   * it or the holder's ran out at `now`: null when nothing is due or another holds it.
   */
  claim(checkoutId: string, leaseId: string, by: string, now: string, until: string): Promise<TransferAttemptRecord | null>;
  /** Moves the end of the renewal lease `leaseId` holds to `until`: false when it holds it no more. */
  renewLease(checkoutId: string, leaseId: string, until: string): Promise<boolean>;
  /** Sets fields while `leaseId` holds the lease: null when the lease was lost. */
  saveUnderLease(checkoutId: string, leaseId: string, set: Partial<TransferAttemptRecord> & Record<string, unknown>): Promise<TransferAttemptRecord | null>;
  /**
   * The charge under `leaseId` is about to be sent to the provider, until `until`: set in one
   * conditional write on the subscription not being cancelled (a cancel then waits for it, see
   * TransferAttemptsPort.cancelSubscription); null when it was cancelled or the lease was lost.
   */
  markSending(checkoutId: string, leaseId: string, until: string): Promise<TransferAttemptRecord | null>;
  /**
   * The charge `transactionUuid` is recorded: nothing more is due until it settles, and the lease
   * is released. Null when the charge settled in the meantime (only the lease is released then).
   */
  finishCharge(checkoutId: string, leaseId: string, transactionUuid: string): Promise<TransferAttemptRecord | null>;
  /**
   * A subscription change with its event, on the version as read (`expectedVersion`) and the
   * charge it follows (`chargeUuid`; null: the first charge, before any period was set;
   * undefined: no charge in flight, for a return of a charge that settled long ago), and the
   * change's audit entry when a merchant actor made it.
   */
  change(
    checkoutId: string,
    expected: { version: number | undefined; chargeUuid: string | null | undefined },
    set: Partial<TransferAttemptRecord>,
    event: DomainEvent | null,
    audit?: readonly DomainEvent[],
  ): Promise<TransferAttemptRecord | null>;
  /** Moves the sandbox test clock forward to `to`; null when it stands later already. */
  moveClock(checkoutId: string, to: string): Promise<TransferAttemptRecord | null>;
  /** A held renewal's review was decided (or expired): its charge falls due at `at`, so the next charger applies the outcome. False when the charge moved on. */
  dueAfterReview(checkoutId: string, reviewId: string, at: string): Promise<boolean>;
}
