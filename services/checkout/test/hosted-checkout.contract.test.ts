import { ANONYMOUS, AppError, createCheckoutOp, generateLinkTokenOp, getHostedCheckoutOp } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { silentLogger } from "@payrail/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { merchantPrincipal, sampleCheckout } from "../../../test/support/fixtures.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { start } from "../src/index.ts";

const variants = await infraVariants();

describe.each(variants)("checkout.getHostedCheckout over $name", (variant) => {
  let client: Transport;
  const merchant = merchantPrincipal();
  const asMerchant = { requestId: "req_test", principal: merchant };
  // The hosted page asks before anyone signs in: the link token is the only proof.
  const anonymous = { requestId: "req_test", principal: ANONYMOUS };

  beforeAll(async () => {
    if (variant.skipReason) return;
    await start({ transport: await variant.transport(), store: await variant.store(), logger: silentLogger() });
    client = await variant.transport();
  });
  afterAll(() => variant.cleanup());

  const checkoutWithToken = async (overrides: Record<string, unknown> = {}) => {
    const { id } = await client.call(createCheckoutOp, { checkout: sampleCheckout(overrides) as never }, asMerchant);
    const { link_token } = await client.call(generateLinkTokenOp, { checkout_id: id }, asMerchant);
    return { id, token: link_token };
  };

  it.skipIf(!!variant.skipReason)("answers the order of a subscription, with its plan and discount, in display form", async () => {
    const { id, token } = await checkoutWithToken({
      is_subscription: true,
      plan_type: "Weekly",
      amounts: { total: "95.00", subtotal: "100.00", tax: 0, shipping: 0, discount_total: "5", currency: "USD" },
      items: [
        { name: "Coffee beans", sku: "B-1", quantity: 2, price: { amount: 2500, currency: "USD" }, image: "https://shop.example/b.png" },
        { name: "Filter", sku: "F-1", quantity: 1, image: "http://shop.example/f.png" },
      ],
    });
    expect(await client.call(getHostedCheckoutOp, { checkout_id: id, link_token: token }, anonymous)).toEqual({
      id,
      merchant_id: merchant.merchantId,
      status: "open",
      amounts: { total: "95.00", subtotal: "100.00", tax: "0.00", shipping: "0.00", discount_total: "5.00", currency: "USD" },
      items: [
        { name: "Coffee beans", quantity: 2, price: "25.00", image: "https://shop.example/b.png" },
        // An http image is not the page's to load (get-hosted-checkout.use-case.ts).
        { name: "Filter", quantity: 1, price: null, image: null },
      ],
      is_subscription: true,
      plan_type: "weekly",
      redirect_confirm_url: "https://shop.example/confirm",
      redirect_cancel_url: "https://shop.example/cancel",
    });
  });

  it.skipIf(!!variant.skipReason)("refuses a token that is unknown or another checkout's", async () => {
    const a = await checkoutWithToken();
    const b = await checkoutWithToken();
    const codeOf = (p: Promise<unknown>) => p.then(() => "ok", (e: unknown) => (e instanceof AppError ? e.code : String(e)));
    expect(await codeOf(client.call(getHostedCheckoutOp, { checkout_id: a.id, link_token: "nope" }, anonymous))).toBe("link_token_invalid");
    expect(await codeOf(client.call(getHostedCheckoutOp, { checkout_id: a.id, link_token: b.token }, anonymous))).toBe("link_token_mismatch");
  });
});
