import { getMandateCopyOp, getNoticeContactsOp, getNoticeRecipientOp, type Principal } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { prefixedHexId } from "@payrail/runtime";
import type { CheckoutRecipient, ContactsPort, MandateCopy, MerchantContact } from "../domain/ports/contacts.port.ts";

/** The notices service calls only on its own account (docs/decisions/0002-service-principals.md). */
export const AS_NOTICES: Principal = { kind: "service", service: "notices" };

export function asNotices() {
  return { requestId: prefixedHexId("req_"), principal: AS_NOTICES };
}

/** The facts notices need, asked over RPC of identity, checkout and payments (SERVICE_CALLS lists each). */
export class ContactsClient implements ContactsPort {
  constructor(private readonly transport: Transport) {}

  async noticeContacts(merchantId: string, userId: string): Promise<{ merchant: MerchantContact; phoneMasked: string | null }> {
    const out = await this.transport.call(getNoticeContactsOp, { merchant_id: merchantId, user_id: userId }, asNotices());
    return {
      merchant: { name: out.merchant.name, supportEmail: out.merchant.support_email, supportPhone: out.merchant.support_phone },
      phoneMasked: out.phone_masked,
    };
  }

  async recipient(checkoutId: string): Promise<CheckoutRecipient> {
    const out = await this.transport.call(getNoticeRecipientOp, { checkout_id: checkoutId }, asNotices());
    return {
      email: out.email,
      amountCents: out.amount_cents,
      currency: out.currency,
      isSubscription: out.is_subscription,
      planType: out.plan_type,
      subscriptionUuid: out.subscription_uuid,
    };
  }

  async mandateCopy(mandateId: string): Promise<MandateCopy> {
    const out = await this.transport.call(getMandateCopyOp, { mandate_id: mandateId }, asNotices());
    return { userId: out.user_id, type: out.type, text: out.text, firstDebitOn: out.first_debit_on };
  }
}
