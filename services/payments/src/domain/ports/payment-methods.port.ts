import type { PaymentMethodRecord } from "../payment-method.entity.ts";

/** The bank account saved for each checkout (one per checkout; a re-link replaces it). */
export interface PaymentMethodsPort {
  save(record: PaymentMethodRecord): Promise<void>;
  findByCheckout(checkoutId: string): Promise<PaymentMethodRecord | null>;
}
