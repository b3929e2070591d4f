import type { DomainEvent } from "@payrail/contracts";
import { centsWithin, insertIfAbsent, insertWithEvents, SequenceBlocks, widenIndex, withEvents, within, type Filter, type Store } from "@payrail/store";
import type { CheckoutListFilter, CheckoutsPort } from "../domain/ports/checkouts.port.ts";
import type { CheckoutRecord, SubscriptionState, TransferSummaryRecord } from "../domain/checkout.entity.ts";
import { toStoredEvent } from "./checkout-outbox.ts";

/** The collection of checkouts; their documents also carry their unpublished events (the outbox). */
export const CHECKOUTS_COLLECTION = "checkouts";
const NUMBER_SEQUENCE = "checkout_number";
/** The field the amount filters compare: the total, in cents. */
const TOTAL = "amountCents.total";

/** Checkouts, always read through their merchant so one tenant never sees another's. */
export class CheckoutRepository implements CheckoutsPort {
  private readonly numbers: SequenceBlocks;

  /**
   * `numberBlock`: numbers reserved per counter write (docs/decisions/0016-embedded-store.md, "Sequence numbers in
   * blocks"). More than 1 only where one process owns the store: numbers order the list
   * ("newest first"), and blocks of two instances would interleave.
   */
  constructor(
    private readonly store: Store,
    numberBlock = 1,
  ) {
    this.numbers = new SequenceBlocks(store, NUMBER_SEQUENCE, numberBlock);
  }

  private get checkouts() {
    return this.store.collection<CheckoutRecord>(CHECKOUTS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    // merchant_checkout_id is unique per merchant: the index, not a read-then-write, decides races.
    await this.checkouts.createIndex({ keys: { merchantId: 1, merchantCheckoutId: 1 }, unique: true, name: "merchant_checkout_id" });
    await this.checkouts.createIndex({ keys: { number: 1 }, unique: true, name: "number" });
    // Each list index ends in the total (docs/decisions/0055-amount-filters.md): after the unique
    // number it changes no order, and an amount range is then checked on the index's keys, so a
    // checkout outside it is never fetched. Each replaces its index without the total.
    // The plain list; by status, or to subscriptions (the dashboard's filters): pages as fast as the plain list.
    await widenIndex(this.checkouts, { keys: { merchantId: 1, number: -1, [TOTAL]: 1 }, name: "merchant_newest_amount" }, "merchant_newest");
    await widenIndex(this.checkouts, { keys: { merchantId: 1, status: 1, number: -1, [TOTAL]: 1 }, name: "merchant_status_newest_amount" }, "merchant_status_newest");
    await widenIndex(
      this.checkouts,
      { keys: { merchantId: 1, isSubscription: 1, number: -1, [TOTAL]: 1 }, name: "merchant_subscriptions_newest_amount" },
      "merchant_subscriptions_newest",
    );
    // The list (and checkouts.csv) within a from/to window.
    await widenIndex(this.checkouts, { keys: { merchantId: 1, createdAt: -1, number: -1, [TOTAL]: 1 }, name: "merchant_created_newest_amount" }, "merchant_created_newest");
  }

  nextNumber(): Promise<number> {
    return this.numbers.take();
  }

  /** Inserts with its events; returns false when the merchant already has this merchant_checkout_id. */
  insert(record: CheckoutRecord, events: readonly DomainEvent[]): Promise<boolean> {
    return insertIfAbsent(this.checkouts, insertWithEvents(record, events.map(toStoredEvent)));
  }

  findForMerchant(merchantId: string, checkoutId: string): Promise<CheckoutRecord | null> {
    return this.checkouts.findOne({ _id: checkoutId, merchantId });
  }

  findByMerchantCheckoutId(merchantId: string, merchantCheckoutId: string): Promise<CheckoutRecord | null> {
    // Served by the unique merchant_checkout_id index.
    return this.checkouts.findOne({ merchantId, merchantCheckoutId });
  }

  findById(checkoutId: string): Promise<CheckoutRecord | null> {
    return this.checkouts.findOne({ _id: checkoutId });
  }

  findByNumber(number: number): Promise<CheckoutRecord | null> {
    return this.checkouts.findOne({ number });
  }

  savePaymentMethod(checkoutId: string, at: string, event: DomainEvent): Promise<CheckoutRecord | null> {
    // The expected state sits in the filter, so of racing saves (or a transfer) the first wins.
    return this.checkouts.findOneAndUpdate(
      { _id: checkoutId, status: "open" },
      withEvents({ $set: { status: "payment_method_saved", updatedAt: at }, $inc: { version: 1 } }, [toStoredEvent(event)]),
    );
  }

  relinkPaymentMethod(checkoutId: string, at: string): Promise<CheckoutRecord | null> {
    return this.checkouts.findOneAndUpdate({ _id: checkoutId, status: "payment_method_saved" }, { $set: { updatedAt: at } });
  }

  recordTransfer(checkoutId: string, transfer: TransferSummaryRecord, subscription: boolean, at: string): Promise<CheckoutRecord | null> {
    return this.checkouts.findOneAndUpdate(
      // Also from `open`: payments' payment_method.saved event may arrive after its transaction.created.
      { _id: checkoutId, status: { $in: ["open", "payment_method_saved"] } },
      {
        $set: { status: "transfer_pending", transfer, ...(subscription ? { subscriptionStatus: "active" } : {}), updatedAt: at },
        $inc: { version: 1 },
      },
    );
  }

  recordTransferStatus(
    checkoutId: string,
    transactionUuid: string,
    status: "paid" | "failed" | "returned",
    transferStatus: string,
    at: string,
  ): Promise<CheckoutRecord | null> {
    // Only from transfer_pending, and only for the transfer the checkout names: final stays
    // final, but for a return, which can follow the payment (refunded in part, or not) or even
    // overtake its completion.
    const from = status === "returned" ? { $in: ["transfer_pending", "paid", "refunded"] } : "transfer_pending";
    return this.checkouts.findOneAndUpdate(
      { _id: checkoutId, status: from, "transfer.transaction_uuid": transactionUuid },
      { $set: { status, "transfer.status": transferStatus, updatedAt: at }, $inc: { version: 1 } },
    );
  }

  recordRefunded(checkoutId: string, transactionUuid: string, cents: number, at: string): Promise<CheckoutRecord | null> {
    const field = `refundedCents.${transactionUuid}`;
    // `null` also matches the missing field: the transaction's first refund. The total is in the
    // filter too, so no figure above it is ever written, whoever calls.
    return this.checkouts.findOneAndUpdate(
      { _id: checkoutId, "amountCents.total": { $gte: cents }, $or: [{ [field]: null }, { [field]: { $lt: cents } }] },
      { $set: { [field]: cents, updatedAt: at } },
    );
  }

  markRefunded(checkoutId: string, transactionUuid: string, at: string): Promise<CheckoutRecord | null> {
    return this.checkouts.findOneAndUpdate(
      { _id: checkoutId, status: "paid", "transfer.transaction_uuid": transactionUuid },
      { $set: { status: "refunded", updatedAt: at }, $inc: { version: 1 } },
    );
  }

  followSubscription(checkoutId: string, version: number, state: SubscriptionState, at: string): Promise<CheckoutRecord | null> {
    return this.checkouts.findOneAndUpdate(
      // Forward only: `null` also matches a checkout that never saw a subscription event.
      {
        _id: checkoutId,
        isSubscription: true,
        transfer: { $ne: null },
        $or: [{ subscriptionVersion: null }, { subscriptionVersion: { $lt: version } }],
      },
      { $set: { ...state, subscriptionVersion: version, updatedAt: at }, $inc: { version: 1 } },
    );
  }

  recordMandate(checkoutId: string, mandateId: string, acceptedAt: string): Promise<CheckoutRecord | null> {
    return this.checkouts.findOneAndUpdate(
      { _id: checkoutId, $or: [{ mandateAcceptedAt: null }, { mandateAcceptedAt: { $lt: acceptedAt } }] },
      { $set: { mandateId, mandateAcceptedAt: acceptedAt } },
    );
  }

  /**
   * Newest first; `after` (the previous page's last checkout) continues after a cursor. Asks for
   * one extra to tell has_more. With a `from`/`to` window the order is creation time, then
   * number (the window's index), else number alone.
   */
  listForMerchant(merchantId: string, limit: number, after?: Pick<CheckoutRecord, "number" | "createdAt">, only: CheckoutListFilter = {}): Promise<CheckoutRecord[]> {
    const filter: Filter = { merchantId };
    if (only.status !== undefined) filter.status = only.status;
    if (only.isSubscription !== undefined) filter.isSubscription = only.isSubscription;
    const total = centsWithin(only);
    if (total) filter[TOTAL] = total;
    const created = within(only);
    if (created) {
      filter.createdAt = created;
      if (after) filter.$or = [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, number: { $lt: after.number } }];
      return this.checkouts.find(filter, { sort: { createdAt: -1, number: -1 }, limit });
    }
    if (after) filter.number = { $lt: after.number };
    return this.checkouts.find(filter, { sort: { number: -1 }, limit });
  }
}
