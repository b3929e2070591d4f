import type { DomainEvent } from "@payrail/contracts";
import type { AttemptProgress, TransferAttemptRecord } from "../transfer-attempt.entity.ts";

/** Storage of transfer attempts; every write below is one conditional write. */
export interface TransferAttemptsPort {
  /** Inserts the attempt, or returns the one that already exists for the checkout. */
  findOrCreate(record: TransferAttemptRecord): Promise<TransferAttemptRecord>;
  find(checkoutId: string): Promise<TransferAttemptRecord | null>;
  /**
   * A page of the user's subscriptions, newest checkout first, those of checkouts numbered below
   * `beforeNumber` when given, of `merchantId` only when given (a sandbox token's merchant).
   */
  subscriptionsOf(userId: string, limit: number, beforeNumber?: number, merchantId?: string): Promise<TransferAttemptRecord[]>;
  /**
   * Takes the lease when nobody holds it (or the holder's lease ran out) and the attempt is not
   * completed; null when another call is working on it.
   */
  acquireLease(checkoutId: string, leaseId: string, now: string, until: string): Promise<TransferAttemptRecord | null>;
  /** Moves the end of the lease `leaseId` holds to `until`: false when it holds it no more. */
  renewLease(checkoutId: string, leaseId: string, until: string): Promise<boolean>;
  /** Records a step's result, only while `leaseId` still holds the lease; null when it was lost. */
  saveProgress(checkoutId: string, leaseId: string, progress: AttemptProgress, at: string): Promise<TransferAttemptRecord | null>;
  /**
   * The last step: the attempt's transfer recorded, the attempt completed and its lease given
   * back, in one conditional write on `leaseId` (null when the lease was lost).
   */
  complete(checkoutId: string, leaseId: string, transfer: Pick<TransferAttemptRecord, "transferId" | "initiatedAt">, at: string): Promise<TransferAttemptRecord | null>;
  /**
   * The subscription is cancelled, with its subscription.cancelled event, in one conditional
   * write on the previous version (`version` - 1) and on no renewal charge being sent at `at`:
   * null when it was cancelled already (the event went out with the first), changed since it
   * was read, or a charge is on its way to the provider.
   */
  cancelSubscription(checkoutId: string, at: string, version: number, events: readonly DomainEvent[]): Promise<TransferAttemptRecord | null>;
  /** Gives the lease back (no-op when it was already taken over). */
  releaseLease(checkoutId: string, leaseId: string): Promise<void>;
  /**
   * Attempts that got as far as a funding source (so the transfer may have been asked for) but
   * never completed, last written before `before` and not looked at by the reconciler since:
   * oldest first (an index serves it).
   */
  stalled(before: string, limit: number): Promise<TransferAttemptRecord[]>;
  /** Attempts whose funding source is the bank account `fingerprint`, by checkout id after `after` (an index serves it). */
  onAccount(fingerprint: string, after: string, limit: number): Promise<TransferAttemptRecord[]>;
  /**
   * The checkout learns its bank account `fingerprint` is blocked, with its events, in one
   * conditional write on the account (not re-linked since), on it not knowing yet, and on the
   * subscription's version as read: null when any of them changed.
   */
  markAccountBlocked(
    checkoutId: string,
    expected: { fingerprint: string; subscriptionVersion: number | undefined },
    set: Partial<TransferAttemptRecord>,
    events: DomainEvent[],
  ): Promise<TransferAttemptRecord | null>;
  /**
   * Takes the re-link lease of a live (not cancelled) subscription when nobody holds it or the
   * holder's ran out at `now`: null when another re-link holds it. Renewals are not claimed
   * while it is held.
   */
  acquireRelinkLease(checkoutId: string, leaseId: string, now: string, until: string): Promise<TransferAttemptRecord | null>;
  releaseRelinkLease(checkoutId: string, leaseId: string): Promise<void>;
  /**
   * The subscription draws on another account from now on, with its events, in one conditional
   * write: while `leaseId` holds the re-link lease, on the version as read, not cancelled, and
   * with no renewal charge between its claim and its transfer. Null when any of them failed.
   */
  relink(checkoutId: string, leaseId: string, subscriptionVersion: number | undefined, set: Partial<TransferAttemptRecord>, events: DomainEvent[]): Promise<TransferAttemptRecord | null>;
  /** The reconciler looked at the attempt and found nothing to finish: not again before the next cut-off. */
  markReconciled(checkoutId: string, at: string): Promise<void>;
}
