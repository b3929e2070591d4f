import type { UserPrincipal } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import { claimCheckout } from "./claim-checkout.ts";
import type { BankDataPort } from "./ports/bank-data.port.ts";
import type { CheckoutsPort, RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { ClaimsPort } from "./ports/claims.port.ts";

/**
 * Create Link Token: the consumer, holding the merchant's link token, claims the checkout and
 * gets a bank-linking token from the bank-data provider to open its account picker with.
 */
export async function createLinkToken(
  deps: { checkouts: Pick<CheckoutsPort, "verifyLinkToken">; claims: ClaimsPort; bankData: BankDataPort; logger: Logger },
  meta: RequestMeta,
  user: UserPrincipal,
  input: { checkout_id: string; link_token: string },
): Promise<{ link_token: string; expiration: string; request_id: string }> {
  const checkout = await claimCheckout(deps, meta, user, input.checkout_id, input.link_token);
  const token = await deps.bankData.createLinkToken({ clientUserId: user.userId, checkoutId: checkout.id });
  deps.logger.info({ requestId: meta.requestId, checkoutId: checkout.id, providerRequestId: token.requestId }, "bank-linking token created");
  return { link_token: token.linkToken, expiration: token.expiration, request_id: token.requestId };
}
