import { centsToDecimal, type HostedCheckout, type Principal } from "@payrail/contracts";
import { bodyOf, type CheckoutRecord } from "./checkout.entity.ts";
import { checkoutNotFound } from "./get-checkout.use-case.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";
import type { LinkTokensPort } from "./ports/link-tokens.port.ts";
import { verifyLinkToken } from "./verify-link-token.use-case.ts";

interface SentItem {
  name: string;
  quantity: number;
  price?: { amount: number };
  image?: string;
}

/**
 * An item's image as the consumer's page may load it: https only. Create Checkout also takes
 * http URLs (the specification's `string (URL)`), which a page served over https must not
 * load (mixed content, and the request would be readable on the way).
 */
function httpsImage(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    // Its normal form (`HTTPS://…` becomes `https://…`), which the page checks for.
    return parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * The hosted page's view of a checkout for the holder of one of its link tokens: the token is
 * checked exactly as for Create Link Token, then only what the consumer may see is answered.
 */
export async function getHostedCheckout(
  deps: { checkouts: CheckoutsPort; linkTokens: LinkTokensPort },
  checkoutId: string,
  linkToken: string,
  caller: Principal,
): Promise<HostedCheckout> {
  await verifyLinkToken(deps, checkoutId, linkToken, caller);
  const checkout = await deps.checkouts.findById(checkoutId);
  if (!checkout) throw checkoutNotFound(checkoutId);
  return toHostedCheckout(checkout);
}

function toHostedCheckout(record: CheckoutRecord): HostedCheckout {
  const body = bodyOf(record) as { items?: SentItem[]; redirect_confirm_url: string; redirect_cancel_url: string };
  const cents = record.amountCents;
  return {
    id: record._id,
    merchant_id: record.merchantId,
    status: record.status,
    amounts: {
      total: centsToDecimal(cents.total),
      subtotal: centsToDecimal(cents.subtotal),
      tax: centsToDecimal(cents.tax),
      shipping: centsToDecimal(cents.shipping),
      discount_total: cents.discount_total === null ? null : centsToDecimal(cents.discount_total),
      currency: record.currency,
    },
    // An item's price.amount is in cents, like the provider APIs the checkout object follows.
    items: (body.items ?? []).map((item) => ({
      name: item.name,
      quantity: item.quantity,
      price: item.price ? centsToDecimal(item.price.amount) : null,
      image: httpsImage(item.image),
    })),
    is_subscription: record.isSubscription,
    plan_type: record.planType,
    redirect_confirm_url: body.redirect_confirm_url,
    redirect_cancel_url: body.redirect_cancel_url,
  };
}
