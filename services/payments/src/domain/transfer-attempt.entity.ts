import type { OutboxFields } from "@payrail/store";

/**
 * The progress of moving one checkout's money (`_id` is the checkout id: one attempt per
 * checkout, ever). Each step's result is written here before the next step starts, so a call
 * that died half-way is resumed by the next one without repeating a finished step; the lease
 * lets one call at a time work on it.
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
  /** Step 1: the bank-data provider's processor token, sealed. */
  processorTokenSealed: string | null;
  customerUrl: string | null;
  /** Step 2: the consumer's funding source at the transfer provider. */
  fundingSourceUrl: string | null;
  /** Step 3: the transfer at the provider. */
  transferId: string | null;
  initiatedAt: string | null;
  /** The transaction record exists and the checkout knows the transfer: nothing left to do. */
  completed: boolean;
  leaseId: string | null;
  leaseUntil: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * A subscription checkout's subscription is the attempt's too (one per checkout): when the
   * consumer cancelled it, and its changes so far (the subscription events' version).
   */
  subscriptionCancelledAt?: string;
  subscriptionVersion?: number;
}

/** Fields a step may write (never the identity of the attempt). */
export type AttemptProgress = Partial<
  Pick<
    TransferAttemptRecord,
    "processorTokenSealed" | "customerUrl" | "fundingSourceUrl" | "transferId" | "initiatedAt" | "completed"
  >
>;
