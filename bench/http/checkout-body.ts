/** The walk-through's Create Checkout body (docs/guide/walk-through.md): what the Create row posts and the seed stores. */
export function checkoutBody(merchantCheckoutId: string): Record<string, unknown> {
  const address = {
    name: "Ada Lovelace",
    address_1: "12 Analytical Row",
    city: "Springfield",
    zone_code: "IL",
    country_code: "US",
    postal_code: "62701",
  };
  return {
    amounts: { total: "107.50", subtotal: "100.00", tax: "5.00", shipping: "2.50", currency: "USD" },
    billing: address,
    shipping: address,
    platform: { platform_type: "custom" },
    merchant_checkout_id: merchantCheckoutId,
    merchant_user_id: "user-42",
    redirect_cancel_url: "https://shop.example/cancel",
    redirect_confirm_url: "https://shop.example/confirm",
    is_subscription: false,
    user_cohorts: [],
  };
}
