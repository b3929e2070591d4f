import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as notices from "@payrail/notices";
import { loadConfig, silentLogger } from "@payrail/runtime";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServices } from "../../../bin/wiring.ts";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { startStack, ADMIN_TOKEN, type Stack } from "../../../test/support/stack.ts";
import { startReceiver, type Receiver } from "../../../test/support/webhook-receiver.ts";
import { axeViolations, browserSkipReason, expectFits375, launchChromium, openPage } from "./support/browser.ts";
import { HELD_AMOUNTS } from "./support/fraud-stack.ts";
import { linkedCheckout } from "./support/payment-flow.ts";
import { payment, refundClient, requested } from "./support/refund-flow.ts";
import { DASHBOARD_PASSWORD } from "./support/dashboard-session.ts";

const skipReason = browserSkipReason();
/** `PAGE_SCREENSHOTS=1` also writes the README's screenshots to docs/. */
const DOCS = join(dirname(fileURLToPath(import.meta.url)), "../../../docs");

/**
 * The merchant dashboard in a real browser (Debian's chromium through playwright-core): a
 * merchant's owner signs in with the keyboard and runs the day's work; a viewer sees no button
 * and is refused when forging one; sign-out ends the session at once; axe on every page. The
 * services run in-process; the HTTP suite covers the same forms on RabbitMQ + MongoDB.
 */
describe.skipIf(!!skipReason)("the merchant dashboard in chromium", { timeout: 120_000 }, () => {
  const variant = embeddedVariant();
  let stack: Stack;
  let receiver: Receiver;
  let webhooks: { stop(): Promise<void> }[] = [];
  let browser: Browser;
  let base: string;
  let merchant: { id: string; apiKey: string };
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    // Screening holds a first debit above $500 from a just-linked account (HELD_AMOUNTS), for the Reviews page.
    const env = { FRAUD_NEW_ACCOUNT_LIMIT: "500.00" };
    [stack, receiver, browser] = await Promise.all([startStack(variant, { env }), startReceiver(), launchChromium()]);
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64"), WEBHOOK_RETRY_SCHEDULE: "100ms,100ms", WEBHOOK_TIMEOUT: "2s" });
    webhooks = await startServices(["webhooks", "ledger"], { config, logger: silentLogger(), transport: await variant.transport(), store: await variant.store() });
    // The notices service, for the notices on a checkout's page (its outbox is the sandbox's).
    webhooks.push(await notices.start({ transport: await variant.transport(), store: await variant.store(), logger: silentLogger(), publicUrl: "https://pay.example" }));
    merchant = await stack.merchant("Corner Bakery");
    base = await stack.app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    for (const w of webhooks) await w.stop();
    await stack?.close();
    await variant.cleanup();
  });

  /** A user of the merchant with a password set through the invitation page itself. */
  async function invitedUser(role: "owner" | "viewer"): Promise<string> {
    const email = `${role}-${randomBytes(4).toString("hex")}@bakery.example`;
    const reply = await fetch(`${base}/api/admin/merchants/${merchant.id}/users`, {
      method: "POST",
      headers: { "x-admin-token": ADMIN_TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ email, role }),
    });
    const { url } = (await reply.json()) as { url: string };
    const { page } = await open();
    await page.goto(url);
    await page.getByLabel("New password").fill(DASHBOARD_PASSWORD);
    await page.getByLabel("Repeat the password").fill(DASHBOARD_PASSWORD);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByText("Password set.").waitFor();
    expect(page.url()).not.toContain("token=");
    await page.context().close();
    return email;
  }

  async function open(width = 1280): Promise<{ page: Page; cspErrors: string[] }> {
    const opened = await openPage(browser, contexts, width);
    opened.page.on("dialog", (d) => void d.accept());
    return opened;
  }

  /** Signs in with the keyboard alone: type, Tab, type, Enter. */
  async function signIn(page: Page, email: string): Promise<void> {
    await page.goto(`${base}/dashboard/sign-in`);
    await page.getByLabel("Email").focus();
    await page.keyboard.type(email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(DASHBOARD_PASSWORD);
    await page.keyboard.press("Enter");
    await heading(page, "Overview");
  }

  const heading = (page: Page, title: string) => page.getByRole("heading", { level: 1, name: title }).waitFor();
  /** axe: no violation of any impact (region and landmark-unique among the rules), with where it was. */
  const expectAccessible = async (page: Page) => expect(await axeViolations(page), page.url()).toEqual([]);
  const screenshot = async (page: Page, name: string) => {
    if (process.env.PAGE_SCREENSHOTS !== "1") return;
    await mkdir(DOCS, { recursive: true });
    await writeFile(join(DOCS, name), await page.screenshot({ fullPage: true }));
  };
  const visit = async (page: Page, path: string, title: string) => {
    await page.goto(`${base}${path}`);
    await heading(page, title);
  };

  it("lets the owner find a payment, settle a refund, cancel a subscription, watch a webhook delivery, and manage keys", async () => {
    const paid = await payment(stack, merchant.apiKey);
    const refund = await requested(stack, paid);
    const sub = await linkedCheckout(stack, merchant.apiKey, { is_subscription: true, plan_type: "monthly", merchant_checkout_id: "sub-2001" });
    const pt = await stack.app.inject({ method: "POST", url: "/api/merchants/payment_preprocess/get_processor_token", payload: { checkout_id: sub.id }, headers: { "api-key": merchant.apiKey } });
    await refundClient(stack).simulate(merchant.apiKey, pt.json().transaction_uuid, "completed");
    const email = await invitedUser("owner");

    const { page, cspErrors } = await open();
    await signIn(page, email);
    expect(await page.textContent("body")).toContain("Sandbox");
    await screenshot(page, "dashboard-overview-1280.png");
    await expectAccessible(page);

    // The payment, found by the shop's own order id.
    await visit(page, "/dashboard/checkouts", "Checkouts");
    await expectAccessible(page);
    const ours = await fetch(`${base}/api/merchants/checkout/${paid.checkoutId}`, { headers: { "api-key": merchant.apiKey } });
    await page.getByLabel("Checkout id or your id").fill(((await ours.json()) as { merchant_checkout_id: string }).merchant_checkout_id);
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: paid.checkoutId }).click();
    await heading(page, `Checkout ${paid.checkoutId}`);
    expect(await page.textContent("main")).toContain("paid");
    await expectAccessible(page);

    // The refund: approved, then paid out.
    await visit(page, "/dashboard/refunds", "Refunds");
    await screenshot(page, "dashboard-refunds-1280.png");
    await expectAccessible(page);
    const row = page.getByRole("row", { name: new RegExp(refund.id) });
    await row.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Refund approved.").waitFor();
    await page.getByRole("row", { name: new RegExp(refund.id) }).getByRole("button", { name: /Pay out/ }).click();
    await page.getByText("Refund payout started.").waitFor();
    expect(await page.getByRole("row", { name: new RegExp(refund.id) }).textContent()).toContain("processing");

    // The subscription, cancelled after the confirmation.
    await visit(page, "/dashboard/subscriptions", "Subscriptions");
    await expectAccessible(page);
    await page.getByRole("row", { name: new RegExp(sub.id) }).getByRole("button", { name: "Cancel" }).click();
    await page.getByText(/^Subscription cancelled\./).waitFor();
    // The list follows the checkout, which learns of the cancel from payments' event.
    await expect.poll(async () => { await page.reload(); return page.getByRole("row", { name: new RegExp(sub.id) }).textContent(); }, { timeout: 15_000 }).toContain("cancelled");

    // A webhook endpoint, its secret shown once, and a delivery seen on its page.
    await visit(page, "/dashboard/webhooks", "Webhook endpoints");
    await page.getByLabel("URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    expect(await page.locator("#endpoint-secret").textContent()).toMatch(/^whsec_/);
    await expectAccessible(page);
    await page.getByLabel("Event type").selectOption("refund.approved");
    await page.getByRole("button", { name: "Send" }).click();
    await heading(page, "Events");
    await expectAccessible(page);
    await visit(page, "/dashboard/webhooks", "Webhook endpoints");
    await page.getByRole("link", { name: receiver.url }).click();
    await heading(page, "Webhook endpoint");
    await expect.poll(async () => { await page.reload(); return page.getByRole("row", { name: /refund\.approved/ }).count(); }, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await page.getByRole("row", { name: /refund\.approved/ }).first().textContent()).toContain("succeeded");
    await expectAccessible(page);

    // An API key: created and shown once, then revoked.
    await visit(page, "/dashboard/api-keys", "API keys");
    await page.getByRole("button", { name: "Create an API key" }).click();
    const key = (await page.locator("#new-key").textContent()) ?? "";
    expect(key).toMatch(/^sk_test_/);
    expect((await fetch(`${base}/api/merchants/checkout?limit=1`, { headers: { "api-key": key } })).status).toBe(200);
    await expectAccessible(page);
    await page.getByRole("row", { name: new RegExp(key.slice(0, 16)) }).getByRole("button", { name: "Revoke" }).click();
    await page.getByText("API key revoked.").waitFor();

    await visit(page, "/dashboard/team", "Team");
    await expectAccessible(page);

    // The audit log names the key this user revoked, filtered by its action.
    await visit(page, "/dashboard/audit-log", "Audit log");
    await page.getByLabel("Action").selectOption("api_key.revoked");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect.poll(async () => { await page.reload(); return page.getByRole("row", { name: new RegExp(key.slice(0, 16)) }).count(); }, { timeout: 15_000 }).toBe(1);
    await expectAccessible(page);
    expect(cspErrors).toEqual([]);
  });

  it("shows a viewer no button, refuses the viewer's forged form with 403, and fits 375 px", async () => {
    const paid = await payment(stack, merchant.apiKey);
    const refund = await requested(stack, paid);
    const email = await invitedUser("viewer");
    const { page } = await open(375);
    await signIn(page, email);
    await screenshot(page, "dashboard-overview-375.png");
    for (const [path, title] of [
      ["/dashboard", "Overview"],
      ["/dashboard/checkouts", "Checkouts"],
      ["/dashboard/subscriptions", "Subscriptions"],
      ["/dashboard/refunds", "Refunds"],
      ["/dashboard/reviews", "Reviews"],
      ["/dashboard/webhooks", "Webhook endpoints"],
      ["/dashboard/events", "Events"],
      ["/dashboard/api-keys", "API keys"],
      ["/dashboard/team", "Team"],
      ["/dashboard/audit-log", "Audit log"],
    ] as const) {
      await visit(page, path, title);
      // No button that changes anything but the sign-out (search and filter forms only GET); nothing scrolls sideways at 375 px.
      expect(await page.locator('form[method="post"] button').allTextContents(), path).toEqual(["Sign out"]);
      await expectFits375(page);
      await expectAccessible(page);
    }
    await visit(page, "/dashboard/refunds", "Refunds");
    await screenshot(page, "dashboard-refunds-375.png");
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const forged = await page.request.post(`${base}/dashboard/refunds/${refund.id}/approve`, { form: { _csrf: csrf }, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
    const status = await fetch(`${base}/api/merchants/refunds/${refund.id}`, { headers: { "api-key": merchant.apiKey } });
    expect(((await status.json()) as { status: string }).status).toBe("pending");
  });

  /** A first debit of $600 that screening held: its checkout, transaction and review, and its consumer's token. */
  async function heldDebit() {
    const linked = await linkedCheckout(stack, merchant.apiKey, HELD_AMOUNTS);
    const pt = await fetch(`${base}/api/merchants/payment_preprocess/get_processor_token`, {
      method: "POST",
      headers: { "api-key": merchant.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ checkout_id: linked.id }),
    });
    const body = (await pt.json()) as { transaction_uuid: string; transaction_status?: string; review_id?: string };
    expect(body.transaction_status).toBe("in_review");
    const status = async () => {
      const records = await fetch(`${base}/api/merchants/manage_subscription/get_subscription_details`, { headers: { authorization: `Token ${linked.consumer.token}` } });
      return ((await records.json()) as { transaction_uuid: string; transaction_status: string }[]).find((r) => r.transaction_uuid === body.transaction_uuid)?.transaction_status;
    };
    return { checkoutId: linked.id, uuid: body.transaction_uuid, reviewId: body.review_id!, status };
  }

  it("lets the owner approve a held debit on the Reviews page (it goes out), and lists a checkout's notices on its page", async () => {
    const held = await heldDebit();
    const paid = await payment(stack, merchant.apiKey, "completed", { customer: { email: "grace@example.com" } });
    const email = await invitedUser("owner");
    const { page, cspErrors } = await open();
    await signIn(page, email);

    await page.getByRole("link", { name: "Reviews" }).click();
    await heading(page, "Reviews");
    await expectAccessible(page);
    await screenshot(page, "dashboard-reviews-1280.png");
    await page.getByRole("row", { name: new RegExp(held.reviewId) }).getByRole("link", { name: held.reviewId }).click();
    await heading(page, `Review ${held.reviewId}`);
    const main = (await page.textContent("main")) ?? "";
    expect(main).toContain("600.00 USD");
    expect(main).toContain("new_account_amount");
    expect(main).toContain(held.uuid);
    expect(main).toMatch(/ending \d{4}/);
    await expectAccessible(page);
    await screenshot(page, "dashboard-review-1280.png");
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Debit approved").waitFor();
    expect(await held.status()).toBe("pending");
    expect(await page.textContent("main")).toContain("approved");
    expect(await page.locator('form[method="post"] button').allTextContents()).toEqual(["Sign out"]);
    await expectAccessible(page);

    // The paid checkout's notices: the receipt by SMS and by email, masked, once sent.
    await visit(page, `/dashboard/checkouts/${paid.checkoutId}`, `Checkout ${paid.checkoutId}`);
    const notices = page.getByRole("region", { name: /^Notices/ });
    await expect.poll(async () => { await page.reload(); return notices.getByRole("row", { name: /payment_receipt.*sent/ }).count(); }, { timeout: 15_000 }).toBe(2);
    expect(await notices.textContent()).toContain("g•••@example.com");
    expect(await notices.textContent()).not.toContain("grace@example.com");
    await expectAccessible(page);
    expect(cspErrors).toEqual([]);
  });

  it("shows a viewer a held debit's review without Approve or Cancel", async () => {
    const held = await heldDebit();
    const email = await invitedUser("viewer");
    const { page } = await open(375);
    await signIn(page, email);
    await visit(page, `/dashboard/reviews/${held.reviewId}`, `Review ${held.reviewId}`);
    expect(await page.textContent("main")).toContain("600.00 USD");
    expect(await page.locator('form[method="post"] button').allTextContents()).toEqual(["Sign out"]);
    await expectFits375(page);
    await expectAccessible(page);
    expect(await held.status()).toBe("in_review");
  });

  it("fits every page at 375 px with every action on screen, passes axe on each, and settles a refund and a payment in the sandbox", async () => {
    const refunds = refundClient(stack);
    const api = { "api-key": merchant.apiKey };
    // A pending refund (Approve, Reject), an approved one (Pay out), a processing one (Settle).
    await requested(stack, await payment(stack, merchant.apiKey));
    const approved = await requested(stack, await payment(stack, merchant.apiKey));
    expect((await refunds.decide(api, approved.id, "Approved")).statusCode).toBe(200);
    const paidOut = await payment(stack, merchant.apiKey);
    const processing = await requested(stack, paidOut);
    expect((await refunds.decide(api, processing.id, "Approved")).statusCode).toBe(200);
    expect((await refunds.initiate(api, processing.id)).json().refund.status).toBe("processing");
    const pending = await payment(stack, merchant.apiKey, "pending");
    const sub = await linkedCheckout(stack, merchant.apiKey, { is_subscription: true, plan_type: "monthly", merchant_checkout_id: `sub-${randomBytes(3).toString("hex")}` });
    const started = await stack.app.inject({ method: "POST", url: "/api/merchants/payment_preprocess/get_processor_token", payload: { checkout_id: sub.id }, headers: api });
    await refunds.simulate(merchant.apiKey, started.json().transaction_uuid, "completed");
    const endpoint = (await stack.app.inject({ method: "POST", url: "/api/merchants/webhook_endpoints", payload: { url: receiver.url, enabled_events: ["*"] }, headers: api })).json<{ id: string }>();
    const held = await heldDebit();
    await invitedUser("viewer");
    const email = await invitedUser("owner");

    const { page, cspErrors } = await open(375);
    // The pages before a session: sign-in and the invitation's password page.
    for (const [path, title] of [["/dashboard/sign-in", "Sign in"], ["/dashboard/accept", "Set your password"]] as const) {
      await visit(page, path, title);
      await expectFits375(page);
      await expectAccessible(page);
    }
    await signIn(page, email);
    // The subscription shows active (with Cancel) once the checkout has learnt of its first charge.
    await visit(page, "/dashboard/subscriptions", "Subscriptions");
    await expect.poll(async () => { await page.reload(); return page.getByRole("row", { name: new RegExp(sub.id) }).getByRole("button", { name: "Cancel" }).count(); }, { timeout: 15_000 }).toBe(1);
    for (const [path, title, buttons] of [
      ["/dashboard", "Overview", []],
      ["/dashboard/checkouts", "Checkouts", ["Search"]],
      [`/dashboard/checkouts/${pending.checkoutId}`, `Checkout ${pending.checkoutId}`, ["Settle (sandbox)"]],
      [`/dashboard/checkouts/${paidOut.checkoutId}`, `Checkout ${paidOut.checkoutId}`, ["Settle (sandbox)"]],
      ["/dashboard/subscriptions", "Subscriptions", ["Cancel"]],
      ["/dashboard/refunds", "Refunds", ["Approve", "Reject", "Pay out 107.50 USD", "Settle (sandbox)"]],
      ["/dashboard/reviews", "Reviews", ["Filter"]],
      [`/dashboard/reviews/${held.reviewId}`, `Review ${held.reviewId}`, ["Approve", "Cancel"]],
      ["/dashboard/webhooks", "Webhook endpoints", ["Add endpoint", "Send"]],
      [`/dashboard/webhooks/${endpoint.id}`, "Webhook endpoint", ["Disable", "Rotate secret"]],
      ["/dashboard/events", "Events", ["Redeliver"]],
      ["/dashboard/api-keys", "API keys", ["Create an API key", "Revoke"]],
      ["/dashboard/team", "Team", ["Change role", "Remove", "Create invitation link"]],
      [`/dashboard/checkouts/chk_${"0".repeat(32)}`, "Not found", []],
    ] as const) {
      await visit(page, path, title);
      const shown = await expectFits375(page);
      expect(shown, path).toEqual(expect.arrayContaining(["Sign out", ...buttons]));
      await expectAccessible(page);
    }

    // The processing refund's payout, settled from its row.
    await visit(page, "/dashboard/refunds", "Refunds");
    await screenshot(page, "dashboard-refunds-owner-375.png");
    await page.getByRole("row", { name: new RegExp(processing.id) }).getByRole("button", { name: "Settle (sandbox)" }).click();
    await page.getByText("Refund settled in the sandbox").waitFor();
    expect(await page.getByRole("row", { name: new RegExp(processing.id) }).textContent()).toContain("completed");
    const settled = await fetch(`${base}/api/merchants/refunds/${processing.id}`, { headers: api });
    expect(((await settled.json()) as { status: string }).status).toBe("completed");
    await expectAccessible(page);

    // The pending payment, settled from its checkout's page; the checkout learns of it from payments' event.
    await visit(page, `/dashboard/checkouts/${pending.checkoutId}`, `Checkout ${pending.checkoutId}`);
    await page.getByRole("button", { name: "Settle (sandbox)" }).click();
    await page.getByText("Payment settled in the sandbox.").waitFor();
    await expect.poll(async () => { await page.reload(); return page.getByRole("button", { name: "Settle (sandbox)" }).count(); }, { timeout: 15_000 }).toBe(0);
    expect(await page.textContent("main")).toContain("completed");
    await expectFits375(page);
    await expectAccessible(page);
    expect(cspErrors).toEqual([]);
  });

  it("ends the session at once at sign-out, in this tab and for a copy of its cookie", async () => {
    const email = await invitedUser("viewer");
    const { page } = await open();
    await signIn(page, email);
    const cookies = await page.context().cookies();
    await page.getByRole("button", { name: "Sign out" }).click();
    await heading(page, "Sign in");
    await page.goto(`${base}/dashboard/refunds`);
    await heading(page, "Sign in");
    const { page: other } = await open();
    await other.context().addCookies(cookies);
    await other.goto(`${base}/dashboard`);
    await heading(other, "Sign in");
    await expectAccessible(other);
  });
});
