import type { CheckoutRecord } from "../checkout.entity.ts";

/** What the checkout use cases need from storage. */
export interface CheckoutsPort {
  nextNumber(): Promise<number>;
  /** Inserts; false when the merchant already has this merchant_checkout_id. */
  insert(record: CheckoutRecord): Promise<boolean>;
  /** The merchant's checkout, or null (also when it belongs to another merchant). */
  findForMerchant(merchantId: string, checkoutId: string): Promise<CheckoutRecord | null>;
  /** Newest first, `limit` records, numbered below `beforeNumber` when given. */
  listForMerchant(merchantId: string, limit: number, beforeNumber?: number): Promise<CheckoutRecord[]>;
}
