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

/** Example bodies of the other operations, keyed by operationId (what Try-it prefills). */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  createCheckout: CREATE_CHECKOUT_EXAMPLE,
  sendCode: { phone: "+14155552671" },
  verifyCode: { phone: "+14155552671", verification_code: "123456" },
  createSandboxPublicToken: { link_token: "link-sandbox-0b3f…" },
  exchangePublicToken: { public_token: "public-sandbox-5c1d…", bankdata_account_id: "acc_checking_0000" },
  executeTransfer: { checkout_id: "chk_0123456789abcdef0123456789abcdef" },
  cancelSubscription: { subscription_transaction_uuid: "sc-0123456789abcdef0123456789abcdef" },
  simulateTransfer: { status: "completed" },
  requestRefund: { transaction_uuid: "sc-0123456789abcdef0123456789abcdef", reason: "Damaged on arrival" },
  decideRefund: { id: "rfd_0123456789abcdef0123456789abcdef", status: "Approved" },
  initiateRefundTransfer: { id: "rfd_0123456789abcdef0123456789abcdef" },
  createMerchant: { name: "Acme Outdoor" },
  addOperator: { phone: "+14155552671" },
};
