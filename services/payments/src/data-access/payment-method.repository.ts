import type { Store } from "@payrail/store";
import type { PaymentMethodRecord } from "../domain/payment-method.entity.ts";
import type { PaymentMethodsPort } from "../domain/ports/payment-methods.port.ts";

/** Payment methods, one per checkout (`_id` = checkout id); the access token arrives sealed. */
export class PaymentMethodRepository implements PaymentMethodsPort {
  constructor(private readonly store: Store) {}

  private get methods() {
    return this.store.collection<PaymentMethodRecord>("payment_methods");
  }

  async save(record: PaymentMethodRecord): Promise<void> {
    const { _id, createdAt, ...fields } = record;
    // One upsert: a re-link replaces the account and token but keeps the first createdAt.
    await this.methods.findOneAndUpdate({ _id }, { $set: fields, $setOnInsert: { createdAt } }, { upsert: true });
  }

  findByCheckout(checkoutId: string): Promise<PaymentMethodRecord | null> {
    return this.methods.findOne({ _id: checkoutId });
  }
}
