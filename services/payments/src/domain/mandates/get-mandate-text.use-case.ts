import type { MandateText, UserPrincipal } from "@payrail/contracts";
import { claimCheckout } from "../bank-accounts/claim-checkout.ts";
import { renderMandateText } from "./mandate-text.ts";
import type { CheckoutsPort, RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { ClaimsPort } from "../bank-accounts/ports/claims.port.ts";
import type { MerchantsPort } from "../shared/ports/merchants.port.ts";

/**
 * The authorization text for the consumer about to link a bank account: the same checks as
 * Create Link Token (a valid link token, a linkable checkout, this consumer's claim), then the
 * words for this checkout, as of today.
 */
export async function getMandateText(
  deps: { checkouts: Pick<CheckoutsPort, "verifyLinkToken">; claims: ClaimsPort; merchants: Pick<MerchantsPort, "merchantName">; now(): Date },
  meta: RequestMeta,
  user: UserPrincipal,
  input: { checkout_id: string; link_token: string },
): Promise<MandateText> {
  const checkout = await claimCheckout(deps, meta, user, input.checkout_id, input.link_token);
  const merchantName = await deps.merchants.merchantName(meta, checkout.merchant_id);
  const { text_version, text } = renderMandateText({ merchantName, checkout, firstDebitOn: deps.now() });
  return { text_version, text };
}
