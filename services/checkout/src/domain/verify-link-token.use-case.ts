import { AppError, reachesMerchant, type CheckoutSummary, type Principal } from "@payrail/contracts";
import { sha256Hex } from "@payrail/runtime";
import { toCheckoutSummary } from "./checkout-summary.ts";
import { checkoutNotFound } from "./get-checkout.use-case.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";
import type { LinkTokensPort } from "./ports/link-tokens.port.ts";

/**
 * A consumer presents the merchant's link token for a checkout: the token is looked up by its
 * hash, must be unexpired and must have been generated for this very checkout. Holding it is
 * the consumer's right to the checkout, whichever merchant owns it; but a sandbox token reaches
 * its own merchant's checkouts only (another's is as absent as an unknown one).
 */
export async function verifyLinkToken(
  deps: { checkouts: CheckoutsPort; linkTokens: LinkTokensPort },
  /** Undefined: the checkout the token was generated for. */
  checkoutId: string | undefined,
  linkToken: string,
  caller: Principal,
): Promise<CheckoutSummary> {
  const token = await deps.linkTokens.findByHash(sha256Hex(linkToken));
  if (!token) throw new AppError("link_token_invalid", "the link-token is not valid");
  if (Date.parse(token.expiresAt) <= Date.now()) {
    throw new AppError("link_token_expired", "the link-token has expired; ask the merchant for a new one");
  }
  if (checkoutId !== undefined && token.checkoutId !== checkoutId) {
    throw new AppError("link_token_mismatch", "the link-token was generated for another checkout", { param: "checkout_id" });
  }
  const checkout = await deps.checkouts.findById(token.checkoutId);
  if (!checkout || !reachesMerchant(caller, checkout.merchantId)) throw checkoutNotFound(token.checkoutId);
  return toCheckoutSummary(checkout);
}
