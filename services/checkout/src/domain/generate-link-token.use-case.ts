import { AppError, type MerchantPrincipal } from "@payrail/contracts";
import { auditEvents, nowIso, randomToken, sha256Hex, type AuditMeta } from "@payrail/runtime";
import { checkoutNotFound } from "./get-checkout.use-case.ts";
import type { CheckoutEventsPort } from "./ports/checkout-events.port.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";
import type { LinkTokensPort } from "./ports/link-tokens.port.ts";

export const LINK_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Generate Link Token: a fresh token per call, bound to one checkout for 24 hours. Older
 * unexpired tokens stay valid (a merchant may open the consumer page twice). The token's record
 * carries its audit entry (the checkout named, never the token or its hash).
 */
export async function generateLinkToken(
  deps: { checkouts: CheckoutsPort; linkTokens: LinkTokensPort; events: CheckoutEventsPort; livemode: boolean },
  meta: AuditMeta & { principal: MerchantPrincipal },
  checkoutId: string,
): Promise<{ link_token: string; checkout_id: string; expiration: string }> {
  const merchant = meta.principal;
  const checkout = await deps.checkouts.findForMerchant(merchant.merchantId, checkoutId);
  if (!checkout) throw checkoutNotFound(checkoutId);
  if (checkout.status === "paid" || checkout.status === "refunded" || checkout.status === "returned") {
    throw new AppError("checkout_closed", `checkout ${checkoutId} is already ${checkout.status}`, { param: "checkout_id" });
  }
  const token = randomToken(32);
  const now = Date.now();
  const expiration = new Date(now + LINK_TOKEN_TTL_MS).toISOString();
  const at = nowIso();
  const change = { service: "checkout", merchantId: merchant.merchantId, action: "checkout.link_token_created", object: { type: "checkout", id: checkoutId }, at, livemode: deps.livemode } as const;
  const audit = auditEvents(meta, change);
  await deps.linkTokens.insert({ _id: sha256Hex(token), checkoutId, merchantId: merchant.merchantId, expiresAt: expiration, createdAt: at }, audit);
  if (audit.length > 0) deps.events.written();
  return { link_token: token, checkout_id: checkoutId, expiration };
}
