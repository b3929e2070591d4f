import { AppError, reachesMerchant, type UserPrincipal } from "@payrail/contracts";
import type { PaymentMethodRecord } from "./payment-method.entity.ts";
import type { CheckoutsPort, RequestMeta } from "./ports/checkouts.port.ts";
import type { PaymentMethodsPort } from "./ports/payment-methods.port.ts";

export interface MicroDepositsAccountDeps {
  checkouts: Pick<CheckoutsPort, "verifyLinkToken">;
  paymentMethods: Pick<PaymentMethodsPort, "findByCheckout" | "changeValidation">;
}

/** Concurrent changes of one account's validation that lose a race read it again; a few at most. */
export const VALIDATION_TRIES = 5;

/**
 * The bank account both micro-deposit routes act on: the one linked to the checkout the
 * consumer's link token names, when this consumer linked it. Another consumer (who holds the
 * link token too) gets the answer Exchange Public Token gives them, 409 `checkout_claimed`; a
 * checkout with no account yet, 409 `payment_method_missing`.
 */
export async function consumerAccount(
  deps: MicroDepositsAccountDeps,
  meta: RequestMeta,
  user: UserPrincipal,
  input: { checkout_id?: string | undefined; link_token: string },
): Promise<PaymentMethodRecord> {
  const checkout = await deps.checkouts.verifyLinkToken(meta, input.checkout_id, input.link_token);
  if (!reachesMerchant(user, checkout.merchant_id)) throw new AppError("checkout_not_found", `no checkout ${checkout.id}`, { param: "checkout_id" });
  const method = await deps.paymentMethods.findByCheckout(checkout.id);
  if (!method) throw new AppError("payment_method_missing", `checkout ${checkout.id} has no linked bank account yet`, { param: "checkout_id" });
  if (method.userId !== user.userId) throw new AppError("checkout_claimed", `checkout ${checkout.id} is being paid by another consumer`, { param: "checkout_id" });
  return method;
}

/** 409 when the account's validation keeps changing under this call (it is being worked on). */
export function validationBusy(checkoutId: string): AppError {
  return new AppError("transfer_in_progress", `the bank account of checkout ${checkoutId} is being validated by another call; retry shortly`, { retryAfter: 1 });
}
