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
   * The validated request body (unknown keys dropped), echoed by Get Checkout: a sub-document,
   * read without a second parse (see `bodyOf`). Never queried.
   */
  body?: Record<string, unknown>;
  /**
   * The same body as JSON text instead, when it holds an array of arrays (`items[].category`),
   * which FerretDB cannot store; and in every checkout written before bodies were sub-documents.
   */
  bodyJson?: string;
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

/** The checkout's body as the merchant sent it, from either form it may be stored in. */
export function bodyOf(record: Pick<CheckoutRecord, "body" | "bodyJson">): Record<string, unknown> {
  return record.body ?? (JSON.parse(record.bodyJson ?? "{}") as Record<string, unknown>);
}

/** How a new checkout keeps its body: a sub-document unless something in it is an array of arrays. */
export function storedBody(body: Record<string, unknown>): Pick<CheckoutRecord, "body" | "bodyJson"> {
  return holdsNestedArray(body) ? { bodyJson: JSON.stringify(body) } : { body };
}

function holdsNestedArray(value: unknown, inArray = false): boolean {
  if (Array.isArray(value)) return inArray || value.some((v) => holdsNestedArray(v, true));
  if (value !== null && typeof value === "object") return Object.values(value).some((v) => holdsNestedArray(v));
  return false;
}
