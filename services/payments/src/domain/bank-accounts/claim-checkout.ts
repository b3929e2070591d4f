import { AppError, reachesMerchant, type CheckoutStatus, type CheckoutSummary, type UserPrincipal } from "@payrail/contracts";
import { nowIso } from "@payrail/runtime";
import type { CheckoutsPort, RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { ClaimsPort } from "./ports/claims.port.ts";

/** A bank account can be linked (or re-linked) until a transfer has started. */
const LINKABLE: readonly CheckoutStatus[] = ["open", "payment_method_saved"];

/**
 * The first step of both bank-linking calls: the merchant link token must be valid for this
 * checkout, the checkout still linkable, and the checkout this consumer's. The first consumer
 * to get here claims it; the claim is one insert keyed by the checkout, so of any number of
 * racing consumers exactly one wins and the others get 409 `checkout_claimed`. A sandbox token
 * of another merchant gets the 404 of an unknown checkout, before anything is claimed.
 */
export async function claimCheckout(
  deps: { checkouts: Pick<CheckoutsPort, "verifyLinkToken">; claims: ClaimsPort },
  meta: RequestMeta,
  user: UserPrincipal,
  checkoutId: string,
  linkToken: string,
): Promise<CheckoutSummary> {
  const checkout = await deps.checkouts.verifyLinkToken(meta, checkoutId, linkToken);
  if (!reachesMerchant(user, checkout.merchant_id)) throw new AppError("checkout_not_found", `no checkout ${checkoutId}`, { param: "checkout_id" });
  if (!LINKABLE.includes(checkout.status)) {
    throw new AppError("checkout_closed", `checkout ${checkoutId} is ${checkout.status}; its bank account can no longer change`, {
      param: "checkout_id",
    });
  }
  const holder = await deps.claims.claim({ _id: checkout.id, userId: user.userId, claimedAt: nowIso() });
  if (holder !== user.userId) {
    throw new AppError("checkout_claimed", `checkout ${checkoutId} is being paid by another consumer`, { param: "checkout_id" });
  }
  return checkout;
}
