import { AppError, type MerchantPrincipal } from "@payrail/contracts";
import { nowIso, randomToken, sha256Hex } from "@payrail/runtime";
import { checkoutNotFound } from "./get-checkout.use-case.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";
import type { LinkTokensPort } from "./ports/link-tokens.port.ts";

export const LINK_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Generate Link Token: a fresh token per call, bound to one checkout for 24 hours. Older
 * unexpired tokens stay valid (a merchant may open the consumer page twice).
 */
export async function generateLinkToken(
  deps: { checkouts: CheckoutsPort; linkTokens: LinkTokensPort },
  merchant: MerchantPrincipal,
  checkoutId: string,
): Promise<{ link_token: string; checkout_id: string; expiration: string }> {
  const checkout = await deps.checkouts.findForMerchant(merchant.merchantId, checkoutId);
  if (!checkout) throw checkoutNotFound(checkoutId);
  if (checkout.status === "paid" || checkout.status === "refunded" || checkout.status === "returned") {
    throw new AppError("checkout_closed", `checkout ${checkoutId} is already ${checkout.status}`, { param: "checkout_id" });
  }
  const token = randomToken(32);
  const now = Date.now();
  const expiration = new Date(now + LINK_TOKEN_TTL_MS).toISOString();
  await deps.linkTokens.insert({
    _id: sha256Hex(token),
    checkoutId,
    merchantId: merchant.merchantId,
    expiresAt: expiration,
    createdAt: nowIso(),
  });
  return { link_token: token, checkout_id: checkoutId, expiration };
}
