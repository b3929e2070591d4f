import type { PlanType } from "../renewals/billing-period.ts";
import type { OutboxFields } from "@payrail/store";

/**
 * The progress of moving one checkout's money (`_id` is the checkout id: one attempt per
 * checkout, ever). The steps' results are written here as they come (the processor token, the
 * customer and the funding source in one write), so a call that died half-way is resumed by the
 * next one without repeating a recorded step; the lease lets one call at a time work on it.
 */
export interface TransferAttemptRecord extends OutboxFields {
  _id: string;
  merchantId: string;
  userId: string;
  userPhone: string;
  checkoutNumber: number;
  amountCents: number;
  currency: string;
  isSubscription: boolean;
  /** Chosen when the attempt starts; the provider's idempotency keys derive from it. */
  transactionUuid: string;
  consumerTransactionId: string;
  merchantTransactionId: string;
  /** Snapshot of the payment method when the attempt started: a later re-link cannot change it. */
  accessTokenSealed: string;
  accountId: string;
  destinationFundingSource: string;
  /**
   * The company entry description of the checkout's debits (`company-entry-description.ts`),
   * fixed when the attempt starts; absent on attempts started before descriptions were kept.
   */
  companyEntryDescription?: string;
  /** Step 1: the bank-data provider's processor token, sealed; recorded with the funding source (one write). */
  processorTokenSealed: string | null;
  customerUrl: string | null;
  /** Step 2: the consumer's funding source at the transfer provider. */
  fundingSourceUrl: string | null;
  /**
   * The provider's fingerprint of the bank account behind the funding source (blocked-account
   * checks, docs/api-notes.md, Returns and blocked bank accounts); absent before step 2, and on attempts made before fingerprints were kept.
   */
  fundingFingerprint?: string | null;
  /** When this checkout learnt that its bank account is blocked (its payment_method.blocked); cleared by a re-link. */
  accountBlockedAt?: string | null;
  /** The fraud review holding the first debit (`rev_…`), once a rule flagged it (docs/decisions/0010-fraud-monitoring.md). */
  reviewId?: string;
  /** Step 3: the transfer at the provider; written with `completed`, after the transaction record that names it. */
  transferId: string | null;
  initiatedAt: string | null;
  /** The transaction record exists and the checkout knows the transfer: nothing left to do. */
  completed: boolean;
  leaseId: string | null;
  leaseUntil: string | null;
  /** When the reconciler last found nothing to finish here (the provider had no transfer). */
  reconciledAt?: string;
  createdAt: string;
  updatedAt: string;
  /**
   * A subscription checkout's subscription is the attempt's too (one per checkout): when the
   * consumer cancelled it, and its changes so far (the subscription events' version).
   */
  subscriptionCancelledAt?: string;
  subscriptionVersion?: number;
  /** Renewals (subscription-schedule.ts): absent on one-off payments and until the first charge settles. */
  planType?: PlanType | null;
  subscriptionStatus?: SubscriptionStatus;
  /** The first charge's time: every period's due date derives from it. */
  anchorAt?: string;
  /** The period whose charge is next or in flight (1 = the first renewal) and its try (0 = first, k = k-th retry). */
  period?: number;
  periodTry?: number;
  /** When the next charge (renewal or retry) is due; null while a charge is in flight or once nothing more is charged. */
  nextChargeAt?: string | null;
  /** The renewal charge being made or awaiting its outcome. */
  charge?: RenewalCharge | null;
  /** One scheduler (or test clock) at a time makes a charge; taken over when it ran out. */
  renewalLeaseId?: string | null;
  renewalLeaseUntil?: string | null;
  /** Charges of this subscription whose return (after they settled) was applied to the schedule. */
  returnedCharges?: string[];
  /** The consumer's re-link of the account (one at a time); renewals wait for it. */
  relinkLeaseId?: string | null;
  relinkLeaseUntil?: string | null;
  /** Sandbox: where the subscription's test clock stands. */
  clockAt?: string;
  /**
   * When the scheduler next looks at the upcoming charge's notice (upcoming-charge.ts): set with
   * a period's first due date to 10 days before it (the longest notice), moved to the notice's own
   * time, and null once it is announced or nothing is due.
   */
  noticeDueAt?: string | null;
  /** The due date the last `subscription.upcoming` announced: each is announced once. */
  announcedChargeAt?: string | null;
  /** The merchant's change of the amount (POST /api/merchants/subscriptions/{checkout_id}), from period `fromPeriod` on. */
  amountChange?: AmountChange | null;
}

/** A subscription's new amount and the first period it is charged for (at least 10 days after the change). */
export interface AmountChange {
  amountCents: number;
  /** What the periods before `fromPeriod` are charged. */
  previousAmountCents: number;
  fromPeriod: number;
  changedAt: string;
}

export type SubscriptionStatus = "active" | "past_due" | "unpaid" | "cancelled";

/**
 * A renewal charge, claimed (with its transaction_uuid) before the provider is called, so a
 * crash at any point resumes this very charge with the same provider idempotency key.
 */
export interface RenewalCharge {
  period: number;
  /** What this try charges, fixed when it is claimed (absent on charges claimed before amounts could change: the attempt's). */
  amountCents?: number;
  tryNumber: number;
  transactionUuid: string;
  consumerTransactionId: string;
  merchantTransactionId: string;
  /** When this try was due, and when it was made (the record's date; the test clock's time in the sandbox). */
  dueAt: string;
  at: string;
  /** When the charge was claimed, in real time (not the test clock): no later than its key's first use. */
  claimedAt?: string;
  transferId: string | null;
  /** Being sent to the provider until then (a cancel waits for it); set right before the provider call. */
  sendingUntil?: string | null;
  /**
   * The mandate this try was checked against (and recorded as its last debit) before the
   * provider was called: a try resumed after a crash was authorized then, and may already be
   * at the provider, so it is not checked again.
   */
  mandateId?: string;
  /** The fraud review holding this charge (`rev_…`), once a rule flagged it; the charge waits, unsent, for its outcome. */
  reviewId?: string;
  /** The transaction record exists (with its transaction.created event). */
  recorded: boolean;
}

/** Fields a step before the transfer may write (never the identity of the attempt; the transfer is written with the completion). */
export type AttemptProgress = Partial<Pick<TransferAttemptRecord, "processorTokenSealed" | "customerUrl" | "fundingSourceUrl" | "fundingFingerprint" | "reviewId">>;

/**
 * Whether a call holds the attempt's lease at `now` (ISO): the converse of the condition on
 * which `acquireLease` takes it (no lease, or one whose end has passed).
 */
export function leaseHeld(attempt: Pick<TransferAttemptRecord, "leaseId" | "leaseUntil">, now: string): boolean {
  return attempt.leaseId !== null && attempt.leaseUntil !== null && attempt.leaseUntil >= now;
}
