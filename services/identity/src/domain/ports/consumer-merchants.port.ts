/**
 * Which merchants a consumer pays: learnt from payments' `payment_method.saved` events (a bank
 * account saved on one of the merchant's checkouts), never from another service's collections.
 */
export interface ConsumerMerchantsPort {
  /** Records that the user pays the merchant; a repeat changes nothing. */
  add(userId: string, merchantId: string, at: string): Promise<void>;
  /** Whether the user pays the merchant. */
  pays(userId: string, merchantId: string): Promise<boolean>;
  /** Whether the user pays any merchant. */
  paysAny(userId: string): Promise<boolean>;
}
