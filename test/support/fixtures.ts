import { randomBytes } from "node:crypto";
import type { MerchantPrincipal } from "@payrail/contracts";

/** A checkout body shaped like the specification's example, with a fresh merchant_checkout_id. */
export function sampleCheckout(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const address = {
    name: "Ada Lovelace",
    address_1: "12 Analytical Row",
    address_2: "Suite 3",
    city: "Springfield",
    area: null,
    zone_code: "IL",
    country_code: "US",
    postal_code: "62701",
    phone_number: "+15555550123",
  };
  return {
    amounts: { total: 107.5, subtotal: "100.00", tax: 5, shipping: 2.5, discount_total: null, currency: "USD" },
    billing: address,
    shipping: { ...address, address_2: undefined },
    platform: { platform_type: "shopify", platform_version: "2.1" },
    items: [
      {
        name: "Widget",
        sku: "WID-1",
        price: { amount: 10000, currency: "USD" },
        quantity: 1,
        category: [["Tools", "Widgets"]],
        image: "https://shop.example/widget.png",
      },
    ],
    shipping_method: "ground",
    merchant_checkout_id: `order-${randomBytes(6).toString("hex")}`,
    merchant_user_id: "user-42",
    redirect_cancel_url: "https://shop.example/cancel",
    redirect_confirm_url: "https://shop.example/confirm",
    is_subscription: false,
    user_cohorts: ["new"],
    chekout_object: "",
    ...overrides,
  };
}

export function merchantPrincipal(merchantId = `mer_${randomBytes(16).toString("hex")}`): MerchantPrincipal {
  return { kind: "merchant", merchantId, keyPrefix: "sk_test_abcdefgh", livemode: false };
}

/** JSON round trip: what a client would see of a value (drops undefined keys). */
export function asJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
