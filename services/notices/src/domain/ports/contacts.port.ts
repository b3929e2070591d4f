/** What the notices service asks the services that own the facts (on its own account). */
export interface ContactsPort {
  /** identity: who the notice names as the merchant, and the consumer's phone, masked (null: none). */
  noticeContacts(merchantId: string, userId: string): Promise<{ merchant: MerchantContact; phoneMasked: string | null }>;
  /** checkout: the consumer's email (null: none) and the purchase. */
  recipient(checkoutId: string): Promise<CheckoutRecipient>;
  /** payments: the authorization's words and the consumer it binds. */
  mandateCopy(mandateId: string): Promise<MandateCopy>;
}

export interface MerchantContact {
  name: string;
  supportEmail: string | null;
  supportPhone: string | null;
}

export interface CheckoutRecipient {
  email: string | null;
  amountCents: number;
  currency: string;
  isSubscription: boolean;
  planType: string | null;
  subscriptionUuid: string | null;
}

export interface MandateCopy {
  userId: string;
  type: string;
  text: string | null;
  firstDebitOn: string;
}
