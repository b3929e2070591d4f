import type { UserPrincipal } from "@payrail/contracts";
import { nowIso, type Logger } from "@payrail/runtime";
import { claimCheckout } from "./claim-checkout.ts";
import type { BankDataPort } from "./ports/bank-data.port.ts";
import type { CheckoutsPort, RequestMeta } from "./ports/checkouts.port.ts";
import type { ClaimsPort } from "./ports/claims.port.ts";
import type { PaymentMethodsPort } from "./ports/payment-methods.port.ts";
import type { SecretBox } from "./secret-box.ts";

export const PAYMENT_METHOD_SAVED = "Payment method saved";

/**
 * Exchange Public Token, in an order that never leaves half a payment method behind:
 * 1. the same checks as Create Link Token (link token, linkable, this consumer's claim);
 * 2. the exchange at the provider: a used or expired public token fails here, before any write;
 * 3. the payment method, its access token sealed, replaces any earlier one of the checkout;
 * 4. the checkout moves to `payment_method_saved`, so it never names a method that is not stored.
 */
export async function exchangePublicToken(
  deps: {
    checkouts: CheckoutsPort;
    claims: ClaimsPort;
    paymentMethods: PaymentMethodsPort;
    bankData: BankDataPort;
    secretBox: SecretBox;
    logger: Logger;
  },
  meta: RequestMeta,
  user: UserPrincipal,
  input: { checkout_id: string; link_token: string; public_token: string; bankdata_account_id: string },
): Promise<{ message: string }> {
  const checkout = await claimCheckout(deps, meta, user, input.checkout_id, input.link_token);
  const item = await deps.bankData.exchangePublicToken(input.public_token);
  const now = nowIso();
  await deps.paymentMethods.save({
    _id: checkout.id,
    checkoutNumber: checkout.number,
    merchantId: checkout.merchant_id,
    userId: user.userId,
    userPhone: user.phone,
    provider: deps.bankData.provider,
    itemId: item.itemId,
    accountId: input.bankdata_account_id,
    accessTokenSealed: deps.secretBox.seal(item.accessToken, checkout.id),
    createdAt: now,
    updatedAt: now,
  });
  await deps.checkouts.markPaymentMethodSaved(meta, checkout.id);
  deps.logger.info({ requestId: meta.requestId, checkoutId: checkout.id, itemId: item.itemId }, "payment method saved");
  return { message: PAYMENT_METHOD_SAVED };
}
