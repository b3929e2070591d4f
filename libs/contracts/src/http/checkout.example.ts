/**
 * The example body of Create Checkout: what Try-it in `/docs` prefills, a valid one-off
 * checkout of the sandbox. `merchant_checkout_id` is unique per merchant: change it to create
 * a second checkout.
 */
export const CREATE_CHECKOUT_EXAMPLE = {
  amounts: { total: "107.50", subtotal: "100.00", tax: "5.00", shipping: "2.50", discount_total: null, currency: "USD" },
  billing: {
    name: "Ada Lovelace",
    address_1: "12 Analytical Row",
    address_2: "Suite 3",
    city: "Springfield",
    zone_code: "IL",
    country_code: "US",
    postal_code: "62701",
    phone_number: "+15555550123",
  },
  shipping: {
    name: "Ada Lovelace",
    address_1: "12 Analytical Row",
    city: "Springfield",
    zone_code: "IL",
    country_code: "US",
    postal_code: "62701",
  },
  platform: { platform_type: "custom", platform_version: "1.0" },
  items: [{ name: "Widget", sku: "WID-1", quantity: 1, image: "https://shop.example/widget.png" }],
  merchant_checkout_id: "order-1001",
  merchant_user_id: "user-42",
  redirect_cancel_url: "https://shop.example/cancel",
  redirect_confirm_url: "https://shop.example/confirm",
  is_subscription: false,
  plan_type: "",
  user_cohorts: [],
};
