import type { CheckoutStatus, DomainEvent } from "@payrail/contracts";
import type { CheckoutRecord, SubscriptionState, TransferSummaryRecord } from "../checkout.entity.ts";

/** What the checkout use cases need from storage. */
export interface CheckoutsPort {
  nextNumber(): Promise<number>;
  /**
   * Inserts the checkout together with the events of its creation and its audit entry (one write); false when the
   * merchant already has this merchant_checkout_id (nothing written, no event).
   */
  insert(record: CheckoutRecord, events: readonly DomainEvent[]): Promise<boolean>;
  /** The merchant's checkout, or null (also when it belongs to another merchant). */
  findForMerchant(merchantId: string, checkoutId: string): Promise<CheckoutRecord | null>;
  /**
   * Any merchant's checkout by id. Only for callers that proved their right to it otherwise
   * (a consumer holding the checkout's link token).
   */
  findById(checkoutId: string): Promise<CheckoutRecord | null>;
  /** Any merchant's checkout by its sequential number (`checkout_id` of transaction records), for event subscribers. */
  findByNumber(number: number): Promise<CheckoutRecord | null>;
  /**
   * One conditional write: `open` becomes `payment_method_saved`, counted in its `version`, with
   * `event` stored on it. Returns the updated checkout, or null when it is absent or not `open`,
   * so of racing saves exactly one wins (and writes its event).
   */
  savePaymentMethod(checkoutId: string, at: string, event: DomainEvent): Promise<CheckoutRecord | null>;
  /** A re-link: `payment_method_saved` stays so (only `updatedAt` moves); null in any other state. */
  relinkPaymentMethod(checkoutId: string, at: string): Promise<CheckoutRecord | null>;
  /*
   * The status changes below follow payments' events and publish none of their own (payments
   * published them), but each counts in the checkout's `version` so the versions of the events
   * it publishes stay in the order of its changes.
   */
  /** `open` or `payment_method_saved` → `transfer_pending` with the transfer (and `active` for a subscription); else null. */
  recordTransfer(checkoutId: string, transfer: TransferSummaryRecord, subscription: boolean, at: string): Promise<CheckoutRecord | null>;
  /**
   * `transfer_pending` with this transfer → `paid` / `failed`, or it (or `paid`, `refunded`) →
   * `returned`; else null (final stays final).
   */
  recordTransferStatus(
    checkoutId: string,
    transactionUuid: string,
    status: "paid" | "failed" | "returned",
    transferStatus: string,
    at: string,
  ): Promise<CheckoutRecord | null>;
  /**
   * Records that refunds sent `cents` back of the checkout's transaction in all, unless a figure
   * as large is recorded already (they only grow) or `cents` exceeds the checkout's total (the
   * write itself checks it); null then, or when the checkout is absent.
   */
  recordRefunded(checkoutId: string, transactionUuid: string, cents: number, at: string): Promise<CheckoutRecord | null>;
  /** `paid` with this transfer → `refunded`; else null. */
  markRefunded(checkoutId: string, transactionUuid: string, at: string): Promise<CheckoutRecord | null>;
  /** The merchant's checkout with this merchant_checkout_id, or null. */
  findByMerchantCheckoutId(merchantId: string, merchantCheckoutId: string): Promise<CheckoutRecord | null>;
  /**
   * A subscription's state as of its event `version` (subscription.*), when the checkout's
   * transfer is recorded and it holds an older version; else null.
   */
  followSubscription(checkoutId: string, version: number, state: SubscriptionState, at: string): Promise<CheckoutRecord | null>;
  /**
   * The checkout's mandate is `mandateId` unless one accepted later is recorded already (a
   * re-link's mandate wins over the first, whatever order their events arrive in); null then.
   */
  recordMandate(checkoutId: string, mandateId: string, acceptedAt: string): Promise<CheckoutRecord | null>;
  /** Newest first, `limit` records, after the checkout `after` (the previous page's last) when given. */
  listForMerchant(merchantId: string, limit: number, after?: Pick<CheckoutRecord, "number" | "createdAt">, only?: CheckoutListFilter): Promise<CheckoutRecord[]>;
}

/** The list's optional filters (each served by its own index). */
export interface CheckoutListFilter {
  status?: CheckoutStatus | undefined;
  isSubscription?: boolean | undefined;
  /** Created in [from, to) (ISO 8601 UTC): the list is then ordered by creation time, then number. */
  from?: string | undefined;
  to?: string | undefined;
  /** The total in [minCents, maxCents], both inclusive. */
  minCents?: number | undefined;
  maxCents?: number | undefined;
}
