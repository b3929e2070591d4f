import { listConsumerPaymentsOp, listConsumerSubscriptionsOp } from "@payrail/contracts";
import { buildApp } from "@payrail/gateway";
import { silentLogger } from "@payrail/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { embeddedVariant, infraVariants } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { consumerTokensAt, randomPhone } from "./support/bank-linking.ts";
import type { LinkedCheckout } from "./support/payment-flow.ts";
import { PortalClient } from "./support/portal-client.ts";
import { payment, type Payment } from "./support/refund-flow.ts";

const variants = await infraVariants();
const MONTHLY = { is_subscription: true, plan_type: "monthly" };

/**
 * The consumer portal over HTTP (issue 23): `GET /api/consumers/subscriptions` and every
 * `/account` route show and change only the signed-in consumer's own records; forms need their
 * CSRF token; the session is an httpOnly cookie and signing out revokes its token. In the
 * sandbox a session reaches the merchant that read its code only
 * (docs/decisions/0001-sandbox-tenancy.md): Ada signs in through each of her two merchants.
 */
describe.each(variants)("the consumer portal over $name", (variant) => {
  let stack: Stack;
  let bakery: { id: string; apiKey: string };
  let books: { id: string; apiKey: string };
  let ada: PortalClient;
  let adaAtBooks: PortalClient;
  let bob: PortalClient;
  let adaConsumer: LinkedCheckout["consumer"];
  let adaBooksConsumer: LinkedCheckout["consumer"];
  let bobConsumer: LinkedCheckout["consumer"];
  let adaSub: Payment;
  let adaBookSub: Payment;
  let adaOneOff: Payment;
  let bobSub: Payment;

  /** Signs a consumer in through the portal; the session cookie's token also serves the API. */
  async function signedIn(): Promise<{ client: PortalClient; consumer: LinkedCheckout["consumer"] }> {
    const client = new PortalClient(stack);
    const phone = randomPhone();
    await client.signIn(phone, bakery.apiKey);
    return { client, consumer: { token: client.cookies.get("payrail_account")!, userId: "", phone } };
  }

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    bakery = await stack.merchant("Corner Bakery");
    books = await stack.merchant("Paper Lantern Books");
    ({ client: ada, consumer: adaConsumer } = await signedIn());
    ({ client: bob, consumer: bobConsumer } = await signedIn());
    // The bookshop reads its own code of Ada's sign-in: her session there.
    [adaBooksConsumer] = await consumerTokensAt(stack, [books.apiKey], adaConsumer.phone, { sent: true });
    adaAtBooks = new PortalClient(stack);
    adaAtBooks.cookies.set("payrail_account", adaBooksConsumer.token);
    adaSub = await payment(stack, bakery.apiKey, "completed", MONTHLY, { consumer: adaConsumer });
    adaOneOff = await payment(stack, books.apiKey, "completed", {}, { consumer: adaBooksConsumer });
    adaBookSub = await payment(stack, books.apiKey, "pending", { ...MONTHLY, merchant_checkout_id: "books-sub" }, { consumer: adaBooksConsumer });
    bobSub = await payment(stack, bakery.apiKey, "completed", MONTHLY, { consumer: bobConsumer });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  const api = (consumer: LinkedCheckout["consumer"], query = "") =>
    stack.app.inject({ url: `/api/consumers/subscriptions${query}`, headers: { authorization: `Bearer ${consumer.token}` } });

  /** Ada as a live token (a real SMS) names her: no merchant scope. */
  const adaLive = async () => ({
    kind: "user" as const,
    userId: (await stack.app.inject({ url: `/api/merchants/manage_subscription/get_subscription_details`, headers: { authorization: adaConsumer.token } })).json()[0].user_id,
    phone: adaConsumer.phone,
  });

  it.skipIf(!!variant.skipReason)("lists a consumer's own subscriptions at every merchant to a live token, newest first, a page at a time", async () => {
    const principal = await adaLive();
    const list = (query: { limit: number; cursor?: string }) => stack.transport.call(listConsumerSubscriptionsOp, query, { requestId: "test", principal });
    const all = await eventually(async () => {
      const body = await list({ limit: 20 });
      expect(body.data[1]).toMatchObject({ status: "active" });
      return body;
    });
    expect(all).toMatchObject({ has_more: false, next_cursor: null });
    expect(all.data).toHaveLength(2);
    expect(all.data[0]).toMatchObject({
      checkout_id: adaBookSub.checkoutId,
      subscription_transaction_uuid: adaBookSub.uuid,
      merchant_name: "Paper Lantern Books",
      status: "incomplete",
      amount: 107.5,
      currency: "USD",
      interval: "monthly",
    });
    expect(all.data[1]).toMatchObject({
      checkout_id: adaSub.checkoutId,
      subscription_transaction_uuid: adaSub.uuid,
      merchant_name: "Corner Bakery",
      interval: "monthly",
      mandate_id: expect.stringMatching(/^mdt_[0-9a-f]{32}$/),
      bank_account: { mask: expect.stringMatching(/^\d{4}$/), blocked: false },
    });
    expect(Date.parse(all.data[1]!.next_charge_at!)).toBeGreaterThan(Date.now());

    const first = await list({ limit: 1 });
    expect(first).toMatchObject({ has_more: true, next_cursor: expect.stringMatching(/^\d+$/) });
    const second = await list({ limit: 1, cursor: first.next_cursor! });
    expect([first.data[0]!.checkout_id, second.data[0]!.checkout_id]).toEqual([adaBookSub.checkoutId, adaSub.checkoutId]);
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
  });

  it.skipIf(!!variant.skipReason)("lists over HTTP the subscriptions of the consumer and of the session's merchant only", async () => {
    const atBakery = (await api(adaConsumer)).json();
    expect(atBakery).toMatchObject({ has_more: false, next_cursor: null });
    expect(atBakery.data.map((s: { checkout_id: string }) => s.checkout_id)).toEqual([adaSub.checkoutId]);
    expect(atBakery.data[0]).toMatchObject({ merchant_name: "Corner Bakery", mandate_id: expect.stringMatching(/^mdt_[0-9a-f]{32}$/) });
    const atBooks = (await api(adaBooksConsumer)).json();
    expect(atBooks.data.map((s: { checkout_id: string }) => s.checkout_id)).toEqual([adaBookSub.checkoutId]);
    const page = (await api(adaBooksConsumer, "?limit=1")).json();
    expect(page).toMatchObject({ has_more: false, next_cursor: null });

    const theirs = (await api(bobConsumer)).json();
    expect(theirs.data.map((s: { checkout_id: string }) => s.checkout_id)).toEqual([bobSub.checkoutId]);
    expect((await stack.app.inject({ url: "/api/consumers/subscriptions" })).statusCode).toBe(401);
    expect((await stack.app.inject({ url: "/api/consumers/subscriptions", headers: { "api-key": bakery.apiKey } })).statusCode).toBe(401);
    const bad = await api(adaConsumer, "?cursor=chk_1");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: "parameter_invalid", param: "cursor" });
  });

  it.skipIf(!!variant.skipReason)("pages through a consumer's payments at every merchant with the merchant's name", async () => {
    const principal = await adaLive();
    const call = (cursor?: string) => stack.transport.call(listConsumerPaymentsOp, { limit: 2, ...(cursor ? { cursor } : {}) }, { requestId: "test", principal });
    const first = await call();
    expect(first.data.map((p) => p.transaction_uuid)).toEqual([adaBookSub.uuid, adaOneOff.uuid]);
    expect(first.data.map((p) => p.merchant_name)).toEqual(["Paper Lantern Books", "Paper Lantern Books"]);
    expect(first.has_more).toBe(true);
    const second = await call(first.next_cursor!);
    expect(second).toMatchObject({ has_more: false, next_cursor: null, data: [{ transaction_uuid: adaSub.uuid, merchant_name: "Corner Bakery", status: "completed", is_subscription: true }] });
  });

  it.skipIf(!!variant.skipReason)("shows and changes nothing of another consumer's through any portal route", async () => {
    const payments = await bob.get("/account/payments");
    expect(payments.statusCode).toBe(200);
    expect(payments.body).toContain(bobSub.uuid);
    for (const p of [adaSub, adaOneOff, adaBookSub]) expect(payments.body).not.toContain(p.uuid);
    expect(payments.body).not.toContain("Paper Lantern Books");

    const subs = await bob.get("/account/subscriptions");
    expect(subs.body).toContain(bobSub.uuid);
    expect(subs.body).not.toContain(adaSub.uuid);
    expect((await bob.get(`/account/subscriptions/${adaSub.uuid}/cancel`)).statusCode).toBe(404);
    expect((await bob.post(`/account/subscriptions/${adaSub.uuid}/cancel`)).statusCode).toBe(404);
    expect((await bob.get(`/account/subscriptions/${adaSub.uuid}/bank-account`)).statusCode).toBe(404);
    const relink = { public_token: "public-sandbox-x", account_id: "acc", text_version: "2026-11-25.1" };
    expect((await bob.post(`/account/subscriptions/${adaSub.uuid}/bank-account`, relink)).statusCode).toBe(404);
    expect((await bob.get(`/account/payments/${adaOneOff.uuid}/refund`)).statusCode).toBe(404);
    expect((await bob.post(`/account/payments/${adaOneOff.uuid}/refund`, { amount: "1.00", reason: "not mine" })).statusCode).toBe(404);
    expect((await bob.get("/account/payments/not-a-uuid/refund")).statusCode).toBe(404);

    // Ada's records are as they were; her own portal shows them.
    expect((await api(adaConsumer)).json().data[0]).toMatchObject({ checkout_id: adaSub.checkoutId, status: "active" });
    const refunds = await ada.get("/account/refunds");
    expect(refunds.statusCode).toBe(200);
    expect(refunds.body).toContain("No refund requests yet");
    const mine = await ada.get("/account/payments");
    // Settled payments link to their refund form; the pending one is shown as processing.
    expect(mine.body).toContain(`/account/payments/${adaSub.uuid}/refund`);
    expect(mine.body).toContain("Corner Bakery");
    expect(mine.body).not.toContain("Paper Lantern Books");
    const atBooks = await adaAtBooks.get("/account/payments");
    expect(atBooks.body).toContain(`/account/payments/${adaOneOff.uuid}/refund`);
    expect(atBooks.body).toContain("Processing");
    expect(atBooks.body).toContain("Paper Lantern Books");
    expect(atBooks.body).not.toContain(adaSub.uuid);
  });

  it.skipIf(!!variant.skipReason)("refuses a form without its CSRF token, keeps the token in an httpOnly cookie, and revokes it on sign-out", async () => {
    const { client, consumer } = await signedIn();
    const noToken = await client.send({ method: "POST", url: "/account/sign-out", form: {} });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.headers["content-type"]).toContain("text/html");
    const wrong = await client.send({ method: "POST", url: "/account/sign-out", form: { _csrf: "forged" } });
    expect(wrong.statusCode).toBe(403);

    const page = await client.get("/account/payments");
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("script-src 'none'");
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.body).not.toContain(consumer.token);

    const fresh = new PortalClient(stack);
    await fresh.get("/account");
    const sent = await fresh.post("/account/sign-in/code", { phone: consumer.phone });
    expect(sent.statusCode).toBe(429); // the resend limit of identity, shown on the form
    expect(sent.body).toContain('role="alert"');

    const out = await client.post("/account/sign-out");
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe("/account?signed_out=1");
    expect(client.cookies.has("payrail_account")).toBe(false);
    const revoked = await stack.app.inject({ url: "/api/consumers/subscriptions", headers: { authorization: consumer.token } });
    expect(revoked.statusCode).toBe(401);
    const after = await client.send({ method: "GET", url: "/account/payments", headers: { cookie: `payrail_account=${consumer.token}` } });
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toBe("/account");
  });

  it.skipIf(!!variant.skipReason)("answers a mistake on the form itself with its 4xx, and a non-browser with the API's error body", async () => {
    const client = new PortalClient(stack);
    await client.get("/account");
    const badPhone = await client.post("/account/sign-in/code", { phone: "12" });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.body).toMatch(/<p class="error" id="phone-error" role="alert">[^<]+<\/p>/);
    expect(badPhone.body).toContain('aria-invalid="true"');
    expect((await client.post("/account/sign-in/code", { phone: "" })).statusCode).toBe(400);

    const badCursor = await adaAtBooks.get("/account/payments?cursor=chk_x");
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.headers["content-type"]).toContain("text/html");
    const asJson = await adaAtBooks.send({ method: "GET", url: "/account/payments?cursor=chk_x", headers: { accept: "application/json" } });
    expect(asJson.statusCode).toBe(400);
    expect(asJson.json().error).toMatchObject({ type: "invalid_request_error", code: "parameter_invalid", param: "cursor", request_id: expect.any(String) });

    await adaAtBooks.get(`/account/payments/${adaOneOff.uuid}/refund`);
    const tooMuch = await adaAtBooks.post(`/account/payments/${adaOneOff.uuid}/refund`, { amount: "200.00", reason: "" });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.body).toContain('id="amount-error"');
    const notAnAmount = await adaAtBooks.post(`/account/payments/${adaOneOff.uuid}/refund`, { amount: "ten", reason: "" });
    expect(notAnAmount.statusCode).toBe(400);
    const pending = await adaAtBooks.get(`/account/payments/${adaBookSub.uuid}/refund`);
    expect(pending.statusCode).toBe(409);
    expect(pending.body).toContain("Only a payment that has settled can be refunded.");
    // Nothing was requested by any of these.
    expect((await adaAtBooks.get("/account/refunds")).body).toContain("No refund requests yet");
  });

  it.skipIf(!!variant.skipReason)("shows on each payment the refunds asked of it and where they stand", async () => {
    const { client, consumer } = await signedIn();
    const paid = await payment(stack, bakery.apiKey, "completed", {}, { consumer });
    await client.get(`/account/payments/${paid.uuid}/refund`);
    expect((await client.post(`/account/payments/${paid.uuid}/refund`, { amount: "2.00", reason: "" })).statusCode).toBe(303);
    const page = await client.get("/account/payments");
    const row = page.body.slice(page.body.lastIndexOf("<tr>", page.body.indexOf(`/account/payments/${paid.uuid}/refund`))).split("</tr>")[0]!;
    expect(row).toContain("Refund of $2.00: Waiting for the merchant");
  });

  it.skipIf(!!variant.skipReason)("serves one small stylesheet, named by its hash and cached for a year, and no script", async () => {
    const page = await new PortalClient(stack).get("/account");
    expect(page.body).not.toContain("<script");
    const href = /<link rel="stylesheet" href="([^"]+)">/.exec(page.body)![1]!;
    expect(href).toMatch(/^\/account\/assets\/portal-[0-9a-f]{12}\.css$/);
    const css = await stack.app.inject({ url: href });
    expect(css.statusCode).toBe(200);
    expect(css.headers["content-type"]).toContain("text/css");
    expect(css.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(css.rawPayload.length).toBeLessThan(4096);
    expect((await stack.app.inject({ url: "/account/assets/portal-000000000000.css" })).statusCode).toBe(404);
  });

  it.skipIf(!!variant.skipReason)("gives every form of a page the same CSRF secret when the browser arrives without one", async () => {
    const { client, consumer } = await signedIn();
    const sub = await payment(stack, bakery.apiKey, "completed", MONTHLY, { consumer });
    client.cookies.delete("payrail_account_csrf");
    const confirm = await client.get(`/account/subscriptions/${sub.uuid}/cancel`);
    expect(confirm.cookies.filter((c) => c.name === "payrail_account_csrf")).toHaveLength(1);
    // The cancel form's own token, not the sign-out form's in the header.
    const token = new RegExp(`action="/account/subscriptions/${sub.uuid}/cancel"><input type="hidden" name="_csrf" value="([^"]+)">`).exec(confirm.body)![1]!;
    const cancelled = await client.send({ method: "POST", url: `/account/subscriptions/${sub.uuid}/cancel`, form: { _csrf: token } });
    expect(cancelled.statusCode).toBe(303);
  });

  it.skipIf(!!variant.skipReason)("sets the session cookie httpOnly, SameSite=Lax, on /account only", async () => {
    const client = new PortalClient(stack);
    const phone = randomPhone();
    await client.get("/account");
    await client.post("/account/sign-in/code", { phone });
    const code = (await stack.app.inject({ url: `/api/sandbox/verification_codes/${encodeURIComponent(phone)}`, headers: { "api-key": bakery.apiKey } })).json().code;
    const wrong = await client.post("/account/sign-in", { phone, code: code === "000000" ? "111111" : "000000" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain("Six-digit code");
    const reply = await client.post("/account/sign-in", { phone, code });
    expect(reply.statusCode).toBe(303);
    const session = reply.cookies.find((c) => c.name === "payrail_account")!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/account" });
    expect(session.secure).toBeFalsy();
  });
});

describe("the consumer portal behind a TLS-terminating proxy", () => {
  const variant = embeddedVariant();
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(variant, { gateway: { trustProxy: true } });
  });
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  it("marks the session and CSRF cookies Secure when the request came over https", async () => {
    const { apiKey } = await stack.merchant("Corner Bakery");
    const client = new PortalClient(stack);
    const https = { "x-forwarded-proto": "https" };
    const phone = randomPhone();
    const first = await client.send({ method: "GET", url: "/account", headers: https });
    expect(first.cookies.find((c) => c.name === "payrail_account_csrf")).toMatchObject({ secure: true, httpOnly: true, path: "/account" });
    await client.send({ method: "POST", url: "/account/sign-in/code", headers: https, form: { _csrf: client.csrf, phone } });
    const code = (await stack.app.inject({ url: `/api/sandbox/verification_codes/${encodeURIComponent(phone)}`, headers: { "api-key": apiKey } })).json().code;
    const signedIn = await client.send({ method: "POST", url: "/account/sign-in", headers: https, form: { _csrf: client.csrf, phone, code } });
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.cookies.find((c) => c.name === "payrail_account")).toMatchObject({ secure: true, httpOnly: true, sameSite: "Lax", path: "/account" });
  });
});

describe("the consumer portal's bank-account page in live mode", () => {
  const variant = embeddedVariant();
  let stack: Stack;
  let live: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    stack = await startStack(variant);
    // A live-mode gateway in front of the same (sandbox) services.
    live = await buildApp({ transport: stack.transport, logger: silentLogger(), apiKeyCacheMs: 0, rateLimitPerMinute: 1000, services: [], sandbox: false });
  });
  afterAll(async () => {
    await live?.close();
    await stack?.close();
    await variant.cleanup();
  });

  it("carries Plaid Link's one script under the hosted page's live policy with a fresh nonce; every other page stays script-free", async () => {
    const { apiKey } = await stack.merchant("Corner Bakery");
    const client = new PortalClient(stack, live);
    const phone = randomPhone();
    await client.signIn(phone, apiKey);
    const sub = await payment(stack, apiKey, "completed", MONTHLY, { consumer: { token: client.cookies.get("payrail_account")!, userId: "", phone } });
    const url = `/account/subscriptions/${sub.uuid}/bank-account`;

    const nonces: string[] = [];
    for (let i = 0; i < 2; i++) {
      const page = await client.get(url);
      expect(page.statusCode).toBe(200);
      const csp = String(page.headers["content-security-policy"]);
      const nonce = /'nonce-([A-Za-z0-9+/]{22}==)'/.exec(csp)![1]!;
      nonces.push(nonce);
      expect(csp.split("; ")).toEqual([
        "default-src 'none'",
        `script-src 'self' 'nonce-${nonce}' https://cdn.plaid.com/link/v2/stable/link-initialize.js`,
        `style-src 'self' 'nonce-${nonce}'`,
        "img-src 'self' data:",
        "connect-src 'self' https://production.plaid.com https://sandbox.plaid.com",
        "frame-src https://cdn.plaid.com",
        "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ]);
      expect(page.headers["cross-origin-opener-policy"]).toBe("same-origin-allow-popups");
      expect(page.headers["cache-control"]).toBe("no-store");
      // One script, the page's own, carrying the nonce; the bank-linking token for Link in the page.
      const scripts = [...page.body.matchAll(/<script[^>]*>/g)].map((m) => m[0]);
      expect(scripts).toEqual([expect.stringMatching(new RegExp(`^<script type="module" src="/pay/assets/portal-relink-[0-9a-f]{12}\\.js" nonce="${nonce.replace(/[+/]/g, "\\$&")}">$`))]);
      expect(page.body).toMatch(/data-link-token="[^"]+"/);
      expect(page.body).toContain('name="_csrf"');
      expect(page.body).not.toContain("Sandbox");
    }
    expect(nonces[0]).not.toBe(nonces[1]);

    const src = /<script type="module" src="([^"]+)"/.exec((await client.get(url)).body)![1]!;
    const script = await live.inject({ url: src });
    expect(script.statusCode).toBe(200);
    expect(script.headers["content-type"]).toContain("text/javascript");
    expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(script.body).toContain("https://cdn.plaid.com/link/v2/stable/link-initialize.js");
    expect(script.rawPayload.length).toBeLessThan(4096);

    // The rest of the live portal, and the sandbox's bank-account page, run no script at all.
    for (const other of [await client.get("/account/subscriptions"), await new PortalClient(stack).get("/account")]) {
      expect(other.headers["content-security-policy"]).toContain("script-src 'none'");
      expect(other.body).not.toContain("<script");
    }
    // Another consumer gets no bank-linking token for this subscription, live as in the sandbox.
    const other = new PortalClient(stack, live);
    await other.signIn(randomPhone(), apiKey);
    const foreign = await other.get(url);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain("data-link-token");
    // A form without Link's answer is a clear 400, not a call to the bank.
    const empty = await client.post(url, { text_version: "x" });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain("Choose an account, then accept the authorization.");
  });
});
