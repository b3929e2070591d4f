import { AppError, normalizedAmounts, normalizedWindow, type CentsRange, type CheckoutStatus, type CheckoutView, type MerchantPrincipal } from "@payrail/contracts";
import { toCheckoutView } from "./checkout-view.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";

/** The merchant's checkouts, newest first, Stripe-style cursor paging. */
export async function listCheckouts(
  deps: { checkouts: CheckoutsPort },
  merchant: MerchantPrincipal,
  query: {
    limit: number;
    starting_after?: string | undefined;
    merchant_checkout_id?: string | undefined;
    status?: CheckoutStatus | undefined;
    is_subscription?: boolean | undefined;
    from?: string | undefined;
    to?: string | undefined;
    amount_gte?: string | undefined;
    amount_lte?: string | undefined;
  },
): Promise<{ data: CheckoutView[]; has_more: boolean }> {
  const amounts = normalizedAmounts(query);
  if (query.merchant_checkout_id !== undefined) {
    // Unique per merchant, so the filtered list is that one checkout or nothing; paging is moot.
    const found = await deps.checkouts.findByMerchantCheckoutId(merchant.merchantId, query.merchant_checkout_id);
    const matches =
      found &&
      (query.status === undefined || found.status === query.status) &&
      (query.is_subscription === undefined || found.isSubscription === query.is_subscription) &&
      inRange(found.amountCents.total, amounts);
    return { data: matches ? [toCheckoutView(found)] : [], has_more: false };
  }
  let after: { number: number; createdAt: string } | undefined;
  if (query.starting_after !== undefined) {
    const cursor = await deps.checkouts.findForMerchant(merchant.merchantId, query.starting_after);
    // Like Stripe: a cursor that names no checkout of this merchant is a bad parameter.
    if (!cursor) throw new AppError("parameter_invalid", "starting_after names no checkout of yours", { param: "starting_after" });
    after = cursor;
  }
  const page = await deps.checkouts.listForMerchant(merchant.merchantId, query.limit + 1, after, {
    status: query.status,
    isSubscription: query.is_subscription,
    ...normalizedWindow(query),
    ...amounts,
  });
  return { data: page.slice(0, query.limit).map(toCheckoutView), has_more: page.length > query.limit };
}

function inRange(cents: number, range: CentsRange): boolean {
  return (range.minCents === undefined || cents >= range.minCents) && (range.maxCents === undefined || cents <= range.maxCents);
}
