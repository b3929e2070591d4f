import type { DomainEvent } from "@payrail/contracts";
import { insertIfAbsent, insertWithEvents, withEvents, type Store } from "@payrail/store";
import type { AccountSlot, PaymentMethodRecord, PendingRelinkRecord } from "../domain/bank-accounts/payment-method.entity.ts";
import type { PaymentMethodsPort } from "../domain/bank-accounts/ports/payment-methods.port.ts";

export const PAYMENT_METHODS_COLLECTION = "payment_methods";

/** Payment methods, one per checkout (`_id` = checkout id); the access token arrives sealed. */
export class PaymentMethodRepository implements PaymentMethodsPort {
  constructor(private readonly store: Store) {}

  private get methods() {
    return this.store.collection<PaymentMethodRecord>(PAYMENT_METHODS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    // Fraud screening: the accounts one phone linked lately, across merchants.
    await this.methods.createIndex({ keys: { userPhone: 1, updatedAt: 1 }, name: "phone_linked" });
  }

  async accountsLinkedByPhone(phone: string, since: string, limit: number): Promise<number> {
    const methods = await this.methods.find({ userPhone: phone, updatedAt: { $gte: since } }, { sort: { updatedAt: -1 }, limit });
    // One account linked at many checkouts counts once: by bank and last digits where known.
    return new Set(methods.map((m) => (m.bankAccount?.mask ? `${m.bankAccount.institution ?? ""}|${m.bankAccount.mask}` : (m.fingerprint ?? m.accountId)))).size;
  }

  async save(record: PaymentMethodRecord, previous: PaymentMethodRecord | null, event: DomainEvent | readonly DomainEvent[]): Promise<boolean> {
    const events = Array.isArray(event) ? [...(event as readonly DomainEvent[])] : [event as DomainEvent];
    if (!previous) return insertIfAbsent(this.methods, insertWithEvents(record, events));
    // A re-link replaces the account and token but keeps the first createdAt.
    const { _id, createdAt: _first, ...fields } = record;
    // `null` also matches the missing version of a method saved before events.
    return (await this.methods.findOneAndUpdate({ _id, version: previous.version ?? null }, withEvents({ $set: fields }, events))) !== null;
  }

  changeValidation(
    checkoutId: string,
    slot: AccountSlot,
    accountId: string,
    expected: number | undefined,
    set: Pick<PaymentMethodRecord, "microDeposits"> & Partial<Pick<PaymentMethodRecord, "validation">>,
    events: readonly DomainEvent[],
  ): Promise<PaymentMethodRecord | null> {
    // A pending change's account lives under `pendingRelink`; the counter is the method's.
    const at = slot === "pending" ? "pendingRelink." : "";
    const fields = Object.fromEntries(Object.entries(set).map(([k, v]) => [`${at}${k}`, v]));
    // `null` also matches the missing counter of a method saved before validation was recorded.
    return this.methods.findOneAndUpdate(
      { _id: checkoutId, [`${at}accountId`]: accountId, validationVersion: expected ?? null },
      withEvents({ $set: { ...fields, validationVersion: (expected ?? 0) + 1 } }, events),
    );
  }

  setPendingRelink(checkoutId: string, expected: number | undefined, pendingRelink: PendingRelinkRecord, events: readonly DomainEvent[]): Promise<PaymentMethodRecord | null> {
    return this.methods.findOneAndUpdate(
      { _id: checkoutId, validationVersion: expected ?? null },
      withEvents({ $set: { pendingRelink, validationVersion: (expected ?? 0) + 1 } }, events),
    );
  }

  findByCheckout(checkoutId: string): Promise<PaymentMethodRecord | null> {
    return this.methods.findOne({ _id: checkoutId });
  }
}
