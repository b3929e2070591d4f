import type { CheckoutStatus } from "@payrail/contracts";

/** Amounts of a checkout in integer cents (money is never a float inside Payrail). */
export interface AmountsInCents {
  total: number;
  subtotal: number;
  tax: number;
  shipping: number;
  discount_total: number | null;
}

export interface TransferSummaryRecord {
  transaction_uuid: string;
  processor_transaction_id: string;
  status: string;
  amount: number;
  currency: string;
  initiated_at: string;
}

/** A stored checkout: the body as the merchant sent it, plus what the server owns. */
export interface CheckoutRecord {
  _id: string;
  merchantId: string;
  /** Sequential number per installation: `checkout_id` of transaction records. */
  number: number;
  merchantCheckoutId: string;
  /**
   * The id of the RPC call that created it (absent when the caller did not ask to run once):
   * a redelivery or retry of that call finds its own checkout behind the unique index and
   * answers it, instead of a 409 for the caller's own create.
   */
  createdByCall?: string;
  /**
   * The validated request body (unknown keys dropped) as JSON text, echoed by Get Checkout.
   * Kept as text because it is never queried and FerretDB cannot store nested arrays
   * (`items[].category` is an array of arrays).
   */
  bodyJson: string;
  amountCents: AmountsInCents;
  currency: string;
  isSubscription: boolean;
  planType: string | null;
  status: CheckoutStatus;
  subscriptionStatus: string;
  transfer: TransferSummaryRecord | null;
  /** Renewals: the last paid period and the next charge, from payments' subscription.* events (absent before the first). */
  currentPeriodStart?: string | null;
  currentPeriodEnd?: string | null;
  nextChargeAt?: string | null;
  /** The debit authorization payments recorded last (its mandate.created), and when it was accepted. */
  mandateId?: string;
  mandateAcceptedAt?: string;
  /** The version of the last subscription.* event applied: older ones change nothing. */
  subscriptionVersion?: number;
  /**
   * Cents sent back by refunds, per transaction_uuid of the checkout (a subscription has one
   * transaction per charge); absent until the first refund completes. `amount_refunded` is the sum.
   */
  refundedCents?: Record<string, number>;
  /**
   * 1 at creation, one more with every status change (subscription status included): the
   * `aggregate.version` of the checkout events. Absent on checkouts created before the events
   * were published, which count as 0 (`$inc` starts a missing field at 0 too).
   */
  version?: number;
  createdAt: string;
  updatedAt: string;
}

/** A merchant link token, stored only as its hash. */
export interface LinkTokenRecord {
  _id: string;
  checkoutId: string;
  merchantId: string;
  expiresAt: string;
  createdAt: string;
}

/** What a subscription.* event sets on its checkout. */
export type SubscriptionState = Pick<CheckoutRecord, "subscriptionStatus" | "currentPeriodStart" | "currentPeriodEnd" | "nextChargeAt">;
