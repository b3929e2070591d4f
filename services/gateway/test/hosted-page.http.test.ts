import { gzipSync } from "node:zlib";
import { buildApp } from "@payrail/gateway";
import { silentLogger } from "@payrail/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { checkoutWithLinkToken, consumerToken } from "./support/bank-linking.ts";

const variants = await infraVariants();
const SHOP = "https://shop.example";

describe.each(variants)("the hosted page's routes over $name", (variant) => {
  let stack: Stack;
  let apiKey: string;

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant, { gateway: { publicUrl: "https://pay.example/", corsOrigins: [SHOP] } });
    apiKey = (await stack.merchant("Hosted Shop")).apiKey;
  });
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  const hosted = (id: string, linkToken?: string) =>
    stack.app.inject({ method: "GET", url: `/api/consumers/checkout/${id}`, headers: linkToken ? { "link-token": linkToken } : {} });

  it.skipIf(!!variant.skipReason)("answers the page's url with generate_link_token, the token in the fragment", async () => {
    const created = await stack.app.inject({ method: "POST", url: "/api/merchants/checkout", headers: { "api-key": apiKey }, payload: sampleCheckout() });
    const id = created.json().id as string;
    const reply = await stack.app.inject({ method: "GET", url: `/api/merchants/checkout/${id}/generate_link_token`, headers: { "api-key": apiKey } });
    expect(reply.statusCode).toBe(200);
    const body = reply.json();
    expect(body.url).toBe(`https://pay.example/pay/${id}#link_token=${encodeURIComponent(body.link_token)}`);
  });

  it.skipIf(!!variant.skipReason)("shows the order to the holder of its link token, and nothing the merchant keeps to itself", async () => {
    const { id, linkToken } = await checkoutWithLinkToken(stack, apiKey);
    const reply = await hosted(id, linkToken);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toEqual({
      id,
      merchant_name: "Hosted Shop",
      status: "open",
      amounts: { total: "107.50", subtotal: "100.00", tax: "5.00", shipping: "2.50", discount_total: null, currency: "USD" },
      items: [{ name: "Widget", quantity: 1, price: "100.00", image: "https://shop.example/widget.png" }],
      is_subscription: false,
      plan_type: null,
      redirect_confirm_url: "https://shop.example/confirm",
      redirect_cancel_url: "https://shop.example/cancel",
    });
    expect(reply.body).not.toMatch(/Analytical Row|order-|user-42|mer_/);
  });

  it.skipIf(!!variant.skipReason)("gives the page an item's image only when it is https; Create Checkout refuses script, data and relative URLs", async () => {
    const item = (name: string, image: string) => ({ name, sku: name, quantity: 1, image });
    const create = (items: unknown[]) =>
      stack.app.inject({ method: "POST", url: "/api/merchants/checkout", headers: { "api-key": apiKey }, payload: sampleCheckout({ items }) });
    for (const image of ["javascript:alert(1)", "data:image/png;base64,iVBORw0KGgo=", "//shop.example/a.png", "/a.png", "ftp://shop.example/a.png"]) {
      const refused = await create([item("Bad", image)]);
      expect(refused.statusCode, image).toBe(400);
      expect(refused.json().error).toMatchObject({ code: "parameter_invalid", param: "items.0.image" });
    }
    const created = await create([item("Mug", "https://cdn.shop.example/mug.png?v=2"), item("Plain", "http://shop.example/plain.png"), item("Loud", "HTTPS://Shop.Example/loud.png")]);
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id as string;
    const link = await stack.app.inject({ method: "GET", url: `/api/merchants/checkout/${id}/generate_link_token`, headers: { "api-key": apiKey } });
    const shown = await hosted(id, link.json().link_token);
    expect(shown.json().items.map((i: { name: string; image: string | null }) => [i.name, i.image])).toEqual([
      ["Mug", "https://cdn.shop.example/mug.png?v=2"],
      ["Plain", null],
      ["Loud", "https://shop.example/loud.png"],
    ]);
  });

  it.skipIf(!!variant.skipReason)("refuses the order without the checkout's own link token", async () => {
    const a = await checkoutWithLinkToken(stack, apiKey);
    const b = await checkoutWithLinkToken(stack, apiKey);
    expect((await hosted(a.id)).json().error.code).toBe("link_token_missing");
    expect((await hosted(a.id, "not-a-token")).json().error.code).toBe("link_token_invalid");
    const other = await hosted(a.id, b.linkToken);
    expect(other.statusCode).toBe(403);
    expect(other.json().error.code).toBe("link_token_mismatch");
  });

  it.skipIf(!!variant.skipReason)("serves the page with a strict policy, never cached, and its hashed assets for a year", async () => {
    const { id } = await checkoutWithLinkToken(stack, apiKey);
    const page = await stack.app.inject({ method: "GET", url: `/pay/${id}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["cache-control"]).toBe("no-store");
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    // Images: the gateway's own and any https URL (the items' pictures); no http:, no data:.
    expect(csp.split("; ")).toContain("img-src 'self' https:");
    expect(csp.replace("img-src 'self' https:", "")).not.toMatch(/https:|http:|data:|unsafe/);
    expect(page.body).toContain('content="sandbox"');
    expect(page.body).not.toContain("nonce");
    const assets = [...page.body.matchAll(/"(\/pay\/assets\/main-[0-9a-f]{12}\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(assets).toHaveLength(2);
    let gzipped = 0;
    for (const url of assets) {
      const asset = await stack.app.inject({ method: "GET", url });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      gzipped += gzipSync(asset.rawPayload).length;
    }
    // The budget: no heavy framework, under 60 KB gzipped.
    expect(gzipped).toBeLessThan(60 * 1024);
    const missing = await stack.app.inject({ method: "GET", url: "/pay/assets/main-000000000000.js" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe("route_not_found");
  });

  it.skipIf(!!variant.skipReason)("lets the page's sandbox picker answer accounts for the consumer's token and the checkout's link token", async () => {
    const { id, linkToken } = await checkoutWithLinkToken(stack, apiKey);
    const consumer = await consumerToken(stack, apiKey);
    const headers = { authorization: `Token ${consumer.token}`, "link-token": linkToken };
    const bank = await stack.app.inject({ method: "POST", url: `/api/consumers/checkout/${id}/create_link_token`, headers });
    const url = `/api/sandbox/consumers/checkout/${id}/public_token`;
    const picked = await stack.app.inject({ method: "POST", url, headers, payload: { link_token: bank.json().link_token } });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.json()).toMatchObject({ public_token: expect.any(String), accounts: expect.arrayContaining([expect.objectContaining({ subtype: "checking" })]) });

    const noToken = await stack.app.inject({ method: "POST", url, headers: { "link-token": linkToken }, payload: { link_token: bank.json().link_token } });
    expect(noToken.statusCode).toBe(401);
    const other = await checkoutWithLinkToken(stack, apiKey);
    const mismatch = await stack.app.inject({ method: "POST", url, headers: { ...headers, "link-token": other.linkToken }, payload: { link_token: bank.json().link_token } });
    expect(mismatch.statusCode).toBe(403);
  });

  it.skipIf(!!variant.skipReason)("allows CORS_ORIGINS on the consumer routes only", async () => {
    const preflight = (url: string, origin = SHOP) =>
      stack.app.inject({ method: "OPTIONS", url, headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization,link-token,content-type" } });
    const consumer = await preflight("/api/verify_user/send_code");
    expect(consumer.statusCode).toBe(204);
    expect(consumer.headers["access-control-allow-origin"]).toBe(SHOP);
    expect(String(consumer.headers["access-control-allow-headers"])).toContain("link-token");

    const stranger = await preflight("/api/verify_user/send_code", "https://evil.example");
    expect(stranger.headers["access-control-allow-origin"]).toBeUndefined();
    // No CORS route there: OPTIONS is just a method that path does not answer (405 with Allow).
    const merchant = await preflight("/api/merchants/checkout");
    expect(merchant.statusCode).toBe(405);
    expect(merchant.headers["access-control-allow-origin"]).toBeUndefined();

    const simple = await stack.app.inject({ method: "POST", url: "/api/verify_user/send_code", headers: { origin: SHOP }, payload: { phone: "nope" } });
    expect(simple.headers["access-control-allow-origin"]).toBe(SHOP);
    const merchantCall = await stack.app.inject({ method: "GET", url: "/api/merchants/checkout", headers: { origin: SHOP, "api-key": apiKey } });
    expect(merchantCall.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it.skipIf(!!variant.skipReason)("lets only Plaid Link's origins into the live page, and has no sandbox picker there", async () => {
    const live = await buildApp({ transport: stack.transport, logger: silentLogger(), apiKeyCacheMs: 0, rateLimitPerMinute: 1000, services: [], sandbox: false });
    try {
      const page = await live.inject({ method: "GET", url: "/pay/chk_0" });
      expect(page.body).toContain('content="live"');
      const csp = String(page.headers["content-security-policy"]);
      const nonce = /<script type="module" src="[^"]+" nonce="([^"]+)">/.exec(page.body)?.[1];
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(csp).toContain(`script-src 'self' 'nonce-${nonce}' https://cdn.plaid.com/link/v2/stable/link-initialize.js;`);
      expect(csp).toContain(`style-src 'self' 'nonce-${nonce}';`);
      expect(csp).toContain("frame-src https://cdn.plaid.com;");
      expect(csp).toContain("img-src 'self' https:;");
      expect(csp).not.toMatch(/unsafe|data:/);
      // A fresh nonce per response.
      expect((await live.inject({ method: "GET", url: "/pay/chk_0" })).body).not.toContain(nonce);
      expect([...csp.matchAll(/https:\/\/[^\s;]+/g)].map((m) => new URL(m[0]).hostname).every((host) => host.endsWith(".plaid.com"))).toBe(true);
      const picker = await live.inject({ method: "POST", url: "/api/sandbox/consumers/checkout/chk_0/public_token", payload: { link_token: "x" } });
      expect(picker.statusCode).toBe(404);
    } finally {
      await live.close();
    }
  });

  it.skipIf(!!variant.skipReason)("documents the page's consumer route in the OpenAPI description", async () => {
    const spec = (await stack.app.inject("/openapi.json")).json();
    expect(spec.paths["/api/consumers/checkout/{checkout_id}"]?.get).toBeDefined();
    expect(spec.paths["/api/sandbox/consumers/checkout/{checkout_id}/public_token"]?.post).toBeDefined();
    expect(spec.paths["/pay/{checkout_id}"]).toBeUndefined();
  });
});
