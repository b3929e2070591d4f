import { insertIfAbsent, type Store } from "@payrail/store";
import type { CheckoutsPort } from "../domain/ports/checkouts.port.ts";
import type { CheckoutRecord, TransferSummaryRecord } from "../domain/checkout.entity.ts";

const COLLECTION = "checkouts";
const NUMBER_SEQUENCE = "checkout_number";

/** Checkouts, always read through their merchant so one tenant never sees another's. */
export class CheckoutRepository implements CheckoutsPort {
  constructor(private readonly store: Store) {}

  private get checkouts() {
    return this.store.collection<CheckoutRecord>(COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    // merchant_checkout_id is unique per merchant: the index, not a read-then-write, decides races.
    await this.checkouts.createIndex({ keys: { merchantId: 1, merchantCheckoutId: 1 }, unique: true, name: "merchant_checkout_id" });
    await this.checkouts.createIndex({ keys: { merchantId: 1, number: -1 }, name: "merchant_newest" });
    await this.checkouts.createIndex({ keys: { number: 1 }, unique: true, name: "number" });
  }

  nextNumber(): Promise<number> {
    return this.store.nextSequence(NUMBER_SEQUENCE);
  }

  /** Inserts; returns false when the merchant already has this merchant_checkout_id. */
  insert(record: CheckoutRecord): Promise<boolean> {
    return insertIfAbsent(this.checkouts, record);
  }

  findForMerchant(merchantId: string, checkoutId: string): Promise<CheckoutRecord | null> {
    return this.checkouts.findOne({ _id: checkoutId, merchantId });
  }

  findById(checkoutId: string): Promise<CheckoutRecord | null> {
    return this.checkouts.findOne({ _id: checkoutId });
  }

  markPaymentMethodSaved(checkoutId: string, at: string): Promise<CheckoutRecord | null> {
    // The expected states sit in the filter, so a transfer that moved the checkout on first wins.
    return this.checkouts.findOneAndUpdate(
      { _id: checkoutId, status: { $in: ["open", "payment_method_saved"] } },
      { $set: { status: "payment_method_saved", updatedAt: at } },
    );
  }

  recordTransfer(checkoutId: string, transfer: TransferSummaryRecord, subscription: boolean, at: string): Promise<CheckoutRecord | null> {
    return this.checkouts.findOneAndUpdate(
      { _id: checkoutId, status: "payment_method_saved" },
      { $set: { status: "transfer_pending", transfer, ...(subscription ? { subscriptionStatus: "active" } : {}), updatedAt: at } },
    );
  }

  recordTransferStatus(
    checkoutId: string,
    transactionUuid: string,
    status: "paid" | "failed",
    transferStatus: string,
    at: string,
  ): Promise<CheckoutRecord | null> {
    // Only from transfer_pending, and only for the transfer the checkout names: final stays final.
    return this.checkouts.findOneAndUpdate(
      { _id: checkoutId, status: "transfer_pending", "transfer.transaction_uuid": transactionUuid },
      { $set: { status, "transfer.status": transferStatus, updatedAt: at } },
    );
  }

  recordRefunded(checkoutId: string, transactionUuid: string, cents: number, at: string): Promise<CheckoutRecord | null> {
    const field = `refundedCents.${transactionUuid}`;
    // `null` also matches the missing field: the transaction's first refund.
    return this.checkouts.findOneAndUpdate(
      { _id: checkoutId, $or: [{ [field]: null }, { [field]: { $lt: cents } }] },
      { $set: { [field]: cents, updatedAt: at } },
    );
  }

  markRefunded(checkoutId: string, transactionUuid: string, at: string): Promise<CheckoutRecord | null> {
    return this.checkouts.findOneAndUpdate(
      { _id: checkoutId, status: "paid", "transfer.transaction_uuid": transactionUuid },
      { $set: { status: "refunded", updatedAt: at } },
    );
  }

  cancelSubscription(checkoutId: string, at: string): Promise<CheckoutRecord | null> {
    return this.checkouts.findOneAndUpdate(
      { _id: checkoutId, isSubscription: true, subscriptionStatus: "active" },
      { $set: { subscriptionStatus: "cancelled", updatedAt: at } },
    );
  }

  /** Newest first; `beforeNumber` continues after a cursor. Asks for one extra to tell has_more. */
  listForMerchant(merchantId: string, limit: number, beforeNumber?: number): Promise<CheckoutRecord[]> {
    const filter = beforeNumber === undefined ? { merchantId } : { merchantId, number: { $lt: beforeNumber } };
    return this.checkouts.find(filter, { sort: { number: -1 }, limit });
  }
}
