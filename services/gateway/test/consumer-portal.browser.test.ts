import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "@payrail/gateway";
import * as notices from "@payrail/notices";
import { silentLogger } from "@payrail/runtime";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { periodStart } from "../../payments/src/domain/renewals/billing-period.ts";
import { consumerTokensAt, randomPhone } from "./support/bank-linking.ts";
import { axeViolations, browserSkipReason, launchChromium, routeFakePlaidLink } from "./support/browser.ts";
import type { LinkedCheckout } from "./support/payment-flow.ts";
import { payment } from "./support/refund-flow.ts";

const skipReason = browserSkipReason();
const DOCS = join(dirname(fileURLToPath(import.meta.url)), "../../../docs");

/**
 * The consumer portal in a real browser (Debian's chromium through playwright-core, as the
 * hosted page's suite): a consumer signs in with the keyboard alone at 375 px, sees their
 * payments at the merchant whose sandbox code signed them in (not the same phone's payment at
 * another merchant: docs/decisions/0001-sandbox-tenancy.md), cancels a subscription (the
 * merchant sees it cancelled, its mandate revoked, and the test clock charges nothing more),
 * asks for part of a payment back and sees the merchant approve it, then signs out. Every page is checked with axe, under the portal's
 * own CSP, with nothing fetched from anywhere else.
 */
describe.skipIf(!!skipReason)("the consumer portal in chromium", { timeout: 120_000 }, () => {
  const variant = embeddedVariant();
  let stack: Stack;
  let bakery: { id: string; apiKey: string };
  let books: { id: string; apiKey: string };
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let noticesService: { stop(): Promise<void> } | undefined;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(variant), launchChromium()]);
    // The notices service, for the receipts page (its outbox is the sandbox's: nothing leaves).
    noticesService = await notices.start({ transport: await variant.transport(), store: await variant.store(), logger: silentLogger(), publicUrl: "https://pay.example" });
    bakery = await stack.merchant("Corner Bakery");
    books = await stack.merchant("Paper Lantern Books");
    base = await stack.app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await noticesService?.stop();
    await stack?.close();
    await variant.cleanup();
  });

  const merchant = async (apiKey: string, method: "GET" | "POST" | "PATCH", path: string, body?: unknown) => {
    const reply = await fetch(`${base}${path}`, {
      method,
      headers: { "api-key": apiKey, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : null,
    });
    return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
  };
  const heading = (page: Page, title: string) => page.getByRole("heading", { level: 1, name: title, exact: true }).waitFor();
  // Every violation, whatever its impact (region and landmark-unique among the rules).
  const expectAccessible = async (page: Page) => expect(await axeViolations(page), page.url()).toEqual([]);
  /** 375 px: nothing scrolls sideways. */
  const expectFits = async (page: Page, screenshot?: string) => {
    // PAGE_SCREENSHOTS=1 also rewrites the README's screenshots in docs/.
    if (screenshot && process.env.PAGE_SCREENSHOTS === "1") await page.screenshot({ path: join(DOCS, screenshot), fullPage: true });
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(375);
  };

  /** Signs a new consumer in through the portal at `portalBase`; their phone and auth token (the session cookie's value). */
  const signIn = async (page: Page, portalBase: string) => {
    const phone = randomPhone();
    await page.goto(`${portalBase}/account`);
    await page.getByLabel("Mobile phone number").fill(phone);
    await page.getByRole("button", { name: "Text me a code" }).click();
    await heading(page, "Enter your code");
    const code = (await merchant(bakery.apiKey, "GET", `/api/sandbox/verification_codes/${encodeURIComponent(phone)}`)).body.code as string;
    await page.getByLabel("Six-digit code").fill(code);
    await page.getByRole("button", { name: "Sign in" }).click();
    await heading(page, "Payments");
    return { phone, token: (await page.context().cookies()).find((c) => c.name === "payrail_account")!.value, userId: "" };
  };
  /** A monthly subscription on the checking account; its first renewal comes back R10, which blocks the account. */
  const blockedSubscription = async (consumer: LinkedCheckout["consumer"]) => {
    const sub = await payment(stack, bakery.apiKey, "completed", { is_subscription: true, plan_type: "monthly" }, { consumer, acceptMandate: true });
    const advance = async (to: string) => {
      const reply = await merchant(bakery.apiKey, "POST", `/api/sandbox/subscriptions/${sub.uuid}/advance`, { to });
      expect(reply.status).toBe(200);
      return (reply.body as unknown as { id: number; transaction_uuid: string; transaction_date_time: string }[]).sort((a, b) => a.id - b.id);
    };
    const [first] = await advance(new Date().toISOString());
    const due = (n: number) => periodStart(first!.transaction_date_time, "monthly", n);
    await eventually(async () => expect((await merchant(bakery.apiKey, "GET", `/api/merchants/checkout/${sub.checkoutId}`)).body.next_charge_at).toBe(due(1)));
    const [, renewal] = await advance(due(1));
    expect((await merchant(bakery.apiKey, "POST", `/api/sandbox/transfers/${renewal!.transaction_uuid}/simulate`, { status: "failed", failure_code: "R10" })).status).toBe(200);
    return { sub, advance };
  };
  /** The subscription's card on the subscriptions page, once it shows the account blocked. */
  const blockedCard = async (page: Page) => {
    const card = page.getByRole("region", { name: "Corner Bakery: $107.50 every month" });
    await eventually(async () => {
      await page.reload();
      expect(await card.textContent()).toContain("Blocked");
    });
    return card;
  };

  it("signs in, shows the signing merchant's payments only, cancels a subscription, requests a partial refund the merchant approves, signs out", async () => {
    context = await browser.newContext({ viewport: { width: 375, height: 780 } });
    const page = await context.newPage();
    const foreign: string[] = [];
    const cspErrors: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(base)) foreign.push(r.url());
    });
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });

    // Sign in with the keyboard alone: the phone field is the first stop, Enter submits.
    await page.goto(`${base}/account`);
    await heading(page, "Sign in");
    await expectAccessible(page);
    await expectFits(page);
    const phone = randomPhone();
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.id")).toBe("phone");
    await page.keyboard.type(phone);
    await page.keyboard.press("Enter");
    await heading(page, "Enter your code");
    await expectAccessible(page);
    const code = (await merchant(bakery.apiKey, "GET", `/api/sandbox/verification_codes/${encodeURIComponent(phone)}`)).body.code as string;
    await page.keyboard.type(code); // the code field has the focus
    await page.keyboard.press("Enter");
    await heading(page, "Payments");
    expect(await page.textContent("main")).toContain("No payments yet");

    // The session is one httpOnly cookie: no script could read it, nothing is in page storage.
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === "payrail_account")!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/account" });
    expect(await page.evaluate("document.cookie.length + localStorage.length + sessionStorage.length")).toBe(0);

    // The consumer pays the bakery twice (the session's token is their auth token), and the
    // bookshop once under the bookshop's own code of the same sign-in, which this session never shows.
    const consumer: LinkedCheckout["consumer"] = { token: session.value, userId: "", phone };
    const [atBooks] = await consumerTokensAt(stack, [books.apiKey], phone, { sent: true });
    const sub = await payment(stack, bakery.apiKey, "completed", { is_subscription: true, plan_type: "monthly" }, { consumer, acceptMandate: true });
    const oneOff = await payment(stack, bakery.apiKey, "completed", {}, { consumer, acceptMandate: true });
    await payment(stack, books.apiKey, "completed", {}, { consumer: atBooks, acceptMandate: true });
    await page.reload();
    await heading(page, "Payments");
    const rows = await page.locator("tbody tr").allTextContents();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toContain("Corner Bakery");
    for (const row of rows) expect(row).toContain("$107.50");
    expect(await page.textContent("main")).not.toContain("Paper Lantern Books");
    await expectAccessible(page);
    await expectFits(page, "portal-payments.png");

    // Subscriptions: plan, status, next charge, the mandate's words; cancel after a confirmation.
    await page.getByRole("link", { name: "Subscriptions" }).click();
    await heading(page, "Subscriptions");
    const card = page.getByRole("region", { name: "Corner Bakery: $107.50 every month" });
    await eventually(async () => {
      await page.reload();
      expect(await card.textContent()).toContain("Active");
    });
    expect(await card.textContent()).toContain("you authorize Corner Bakery to debit the bank account you choose for $107.50 every month");
    await expectAccessible(page);
    await expectFits(page, "portal-subscriptions.png");
    await card.getByRole("link", { name: "Cancel subscription to Corner Bakery" }).focus();
    await page.keyboard.press("Enter");
    await heading(page, "Cancel this subscription?");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Yes, cancel the subscription" }).focus();
    await page.keyboard.press("Enter");
    await heading(page, "Subscriptions");
    expect(await page.getByRole("status").textContent()).toContain("Subscription cancelled");
    expect(await card.textContent()).toContain("Cancelled");
    expect(await card.textContent()).toContain("Revoked on");
    await expectAccessible(page);

    // The merchant sees it cancelled and its mandate revoked; the test clock charges nothing more.
    const checkout = await eventually(async () => {
      const view = (await merchant(bakery.apiKey, "GET", `/api/merchants/checkout/${sub.checkoutId}`)).body;
      expect(view.subscription_status).toBe("cancelled");
      return view;
    });
    const mandate = (await merchant(bakery.apiKey, "GET", `/api/merchants/mandates/${checkout.mandate_id as string}`)).body;
    expect(mandate).toMatchObject({ type: "recurring", status: "revoked" });
    const inThreeMonths = new Date(Date.now() + 95 * 86_400_000).toISOString();
    const advanced = await merchant(bakery.apiKey, "POST", `/api/sandbox/subscriptions/${sub.uuid}/advance`, { to: inThreeMonths });
    expect(advanced.status).toBe(200);
    expect(advanced.body).toHaveLength(1); // the first charge only: no renewal

    // A partial refund of the one-off payment (the newest), which the merchant approves.
    await page.getByRole("link", { name: "Payments" }).click();
    await heading(page, "Payments");
    await page.getByRole("link", { name: /Request a refund of \$107\.50 to Corner Bakery/ }).first().click();
    await heading(page, "Request a refund");
    await expectAccessible(page);
    await expectFits(page, "portal-refund.png");
    await page.getByLabel("Amount to refund (USD)").fill("40.00");
    await page.getByLabel("Reason (optional)").fill("One loaf arrived stale");
    await page.getByRole("button", { name: "Request refund" }).click();
    await heading(page, "Refunds");
    expect(await page.getByRole("status").textContent()).toContain("Refund requested");
    const refundRow = page.locator("tbody tr").first();
    expect(await refundRow.textContent()).toContain("$40.00");
    expect(await refundRow.textContent()).toContain("One loaf arrived stale");
    expect(await refundRow.textContent()).toContain("Waiting for the merchant");
    await expectAccessible(page);
    const refunds = (await merchant(bakery.apiKey, "GET", `/api/merchants/refunds?transaction_uuid=${oneOff.uuid}`)).body.data as { id: string; amount: number }[];
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.amount).toBe(40);
    const decided = await merchant(bakery.apiKey, "POST", "/api/merchants/refund_request/merchant_status_refund_request", { id: refunds[0]!.id, status: "Approved" });
    expect(decided.status).toBe(200);
    await page.reload();
    expect(await refundRow.textContent()).toContain("Approved by the merchant");

    // Sign out: the token is revoked, the browser is back at sign-in.
    await page.getByRole("button", { name: "Sign out" }).click();
    await heading(page, "Sign in");
    expect(await page.getByRole("status").textContent()).toContain("You are signed out");
    expect((await context.cookies()).some((c) => c.name === "payrail_account")).toBe(false);
    const revoked = await fetch(`${base}/api/consumers/subscriptions`, { headers: { authorization: `Token ${consumer.token}` } });
    expect(revoked.status).toBe(401);
    await page.goto(`${base}/account/payments`);
    await heading(page, "Sign in");

    expect(foreign).toEqual([]);
    expect(cspErrors).toEqual([]);
  });

  it("lists the consumer's receipts and shows one: the words sent on each channel, the merchant's name and support", async () => {
    const receiptsContext = await browser.newContext({ viewport: { width: 375, height: 780 } });
    const page = await receiptsContext.newPage();
    const cspErrors: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    const profile = await merchant(bakery.apiKey, "PATCH", "/api/merchants/profile", { support_email: "help@bakery.example", support_phone: "+15555550142" });
    expect(profile.status).toBe(200);
    const consumer = await signIn(page, base);
    await payment(stack, bakery.apiKey, "completed", { customer: { email: "ada@example.com" } }, { consumer });

    await page.getByRole("link", { name: "Receipts" }).click();
    await heading(page, "Receipts");
    const link = page.getByRole("link", { name: "Receipt: $107.50 to Corner Bakery" });
    await eventually(async () => {
      await page.reload();
      expect(await link.count()).toBe(1);
    });
    expect(await page.locator("tbody tr").first().textContent()).toContain("Corner Bakery");
    await expectAccessible(page);
    await expectFits(page, "portal-receipts.png");

    await link.click();
    await heading(page, "Receipt: $107.50 to Corner Bakery");
    const main = (await page.textContent("main")) ?? "";
    expect(main).toContain("help@bakery.example");
    expect(main).toContain("+15555550142");
    expect(main).toContain("Corner Bakery: your payment of $107.50 has gone through.");
    expect(main).toContain("Your payment of $107.50 to Corner Bakery has gone through.");
    expect(await page.getByRole("heading", { level: 2, name: /^Text message to \+1/ }).count()).toBe(1);
    expect(await page.getByRole("heading", { level: 2, name: "Email to a•••@example.com" }).count()).toBe(1);
    expect(main).not.toContain("ada@example.com");
    await expectAccessible(page);
    await expectFits(page, "portal-receipt.png");
    await page.getByRole("link", { name: "Back to receipts" }).click();
    await heading(page, "Receipts");
    expect(cspErrors).toEqual([]);
    await receiptsContext.close();
  });

  it("shows a blocked account as blocked with what to do, and switches the subscription to another account the next renewal then draws on", async () => {
    const relinkContext = await browser.newContext({ viewport: { width: 375, height: 780 } });
    const page = await relinkContext.newPage();
    const cspErrors: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    const consumer = await signIn(page, base);
    const { token } = consumer;
    const { sub, advance } = await blockedSubscription(consumer);

    await page.getByRole("link", { name: "Subscriptions" }).click();
    const card = await blockedCard(page);
    expect(await card.textContent()).toContain("Link another account to keep this subscription");
    await expectAccessible(page);
    await expectFits(page);

    // Another account, under a new authorization.
    await card.getByRole("link", { name: "Change bank account for Corner Bakery" }).click();
    await heading(page, "Change the bank account");
    expect(await page.getByRole("region", { name: "Debit authorization" }).textContent()).toContain("you authorize Corner Bakery to debit");
    await expectAccessible(page);
    await expectFits(page, "portal-bank-account.png");
    // The blocked checking account again: refused on the page, with a fresh choice.
    await page.getByLabel(/Plaid Checking/).check();
    await page.getByRole("button", { name: "Accept and use this account" }).click();
    await heading(page, "Change the bank account");
    expect(await page.getByRole("alert").textContent()).toContain("That bank account is blocked");
    await expectAccessible(page);
    await page.getByLabel(/Plaid Saving/).check();
    await page.getByRole("button", { name: "Accept and use this account" }).click();
    await heading(page, "Subscriptions");
    expect(await page.getByRole("status").textContent()).toContain("Bank account changed");
    expect(await card.textContent()).toContain("ending 1111");
    expect(await card.textContent()).not.toContain("Blocked");
    expect(await card.textContent()).toContain("Active");
    // The new authorization's own words, those of a change of account (they name the next charge as the first debit).
    expect(await card.textContent()).toContain(
      "By confirming this change of bank account, you authorize Corner Bakery to debit the bank account you choose, instead of the account you pay from now, for $107.50 every month",
    );
    await expectAccessible(page);

    // The next renewal is charged (a blocked account would have been refused), on the new mandate.
    const listed = (await (await fetch(`${base}/api/consumers/subscriptions`, { headers: { authorization: `Token ${token}` } })).json()) as {
      data: { checkout_id: string; mandate_id: string; next_charge_at: string; bank_account: { mask: string; blocked: boolean } }[];
    };
    const now = listed.data.find((d) => d.checkout_id === sub.checkoutId)!;
    expect(now.bank_account).toMatchObject({ mask: "1111", blocked: false });
    await eventually(async () => expect((await merchant(bakery.apiKey, "GET", `/api/merchants/checkout/${sub.checkoutId}`)).body.subscription_status).toBe("active"));
    const records = await advance(now.next_charge_at);
    expect(records).toHaveLength(3);
    const mandate = (await merchant(bakery.apiKey, "GET", `/api/merchants/mandates/${now.mandate_id}`)).body;
    expect(mandate).toMatchObject({ type: "recurring", status: "active", bank_account: { mask: "1111" }, last_debit_at: expect.any(String) });
    expect(cspErrors).toEqual([]);
    await relinkContext.close();
  });

  it("changes to an account the bank could not validate through its two deposits: tries left, locked, another account; then the right amounts switch it", async () => {
    const mdContext = await browser.newContext({ viewport: { width: 375, height: 780 } });
    const page = await mdContext.newPage();
    const cspErrors: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    const consumer = await signIn(page, base);
    const subscribed = async () => {
      const sub = await payment(stack, bakery.apiKey, "completed", { is_subscription: true, plan_type: "monthly" }, { consumer, acceptMandate: true });
      await page.goto(`${base}/account/subscriptions/${sub.uuid}/bank-account`);
      await heading(page, "Change the bank account");
      return sub;
    };
    /** The amounts, as the sandbox's micro_deposits notice of the checkout tells the consumer. */
    const noticed = (checkoutId: string) =>
      eventually(async () => {
        const list = (await merchant(bakery.apiKey, "GET", `/api/sandbox/notices?checkout_id=${checkoutId}`)).body.data as { type: string; body: string }[];
        const amounts = /the amounts are \$(0\.\d\d) and \$(0\.\d\d)/.exec(list.find((n) => n.type === "micro_deposits")?.body ?? "");
        expect(amounts).not.toBeNull();
        return [amounts![1]!, amounts![2]!] as const;
      });
    const enter = async (first: string, second: string) => {
      await page.getByLabel("First deposit ($)").fill(first);
      await page.getByLabel("Second deposit ($)").fill(second);
      await page.getByRole("button", { name: "Confirm my account" }).click();
    };

    // Unverifiable Checking: the change waits for the deposits, the subscription keeps its account.
    const sub = await subscribed();
    expect(await page.getByRole("region", { name: "Debit authorization" }).textContent()).toContain("By confirming this change of bank account, you authorize Corner Bakery");
    await page.getByLabel(/Unverifiable Checking/).check();
    await page.getByRole("button", { name: "Accept and use this account" }).click();
    await heading(page, "Confirm your new bank account");
    expect(await page.textContent("main")).toContain("keeps drawing on your current account until you enter them");
    expect(await page.textContent("main")).toContain("You have 3 tries left.");
    await expectAccessible(page);
    await expectFits(page);
    const right = await noticed(sub.checkoutId);
    const wrong = ["0.99", "0.98", "0.97", "0.96"].filter((x) => !right.includes(x));
    await enter(wrong[0]!, wrong[1]!);
    await heading(page, "Confirm your new bank account");
    expect(await page.getByRole("alert").textContent()).toContain("Those are not the two amounts we sent");
    expect(await page.textContent("main")).toContain("You have 2 tries left.");
    expect(await page.getByLabel("First deposit ($)").getAttribute("aria-invalid")).toBe("true");
    await expectAccessible(page);
    await enter(wrong[0]!, wrong[1]!);
    expect(await page.textContent("main")).toContain("You have 1 try left.");
    await enter(wrong[0]!, wrong[1]!);
    await heading(page, "Confirm your new bank account");
    expect(await page.getByRole("alert").textContent()).toContain("Three wrong pairs of amounts were entered");
    await expectAccessible(page);
    await expectFits(page);
    // Locked: choose another account, which the bank validates at once.
    await page.getByRole("link", { name: "Choose another account" }).click();
    await heading(page, "Change the bank account");
    await page.getByLabel(/Plaid Saving/).check();
    await page.getByRole("button", { name: "Accept and use this account" }).click();
    await heading(page, "Subscriptions");
    expect(await page.getByRole("status").textContent()).toContain("Bank account changed");

    // Another subscription: the right amounts, typed as on a statement, switch it.
    const second = await subscribed();
    await page.getByLabel(/Unverifiable Checking/).check();
    await page.getByRole("button", { name: "Accept and use this account" }).click();
    await heading(page, "Confirm your new bank account");
    const amounts = await noticed(second.checkoutId);
    await enter(`$${amounts[1]}`, amounts[0]);
    await heading(page, "Subscriptions");
    expect(await page.getByRole("status").textContent()).toContain("Bank account changed");
    const listed = (await (await fetch(`${base}/api/consumers/subscriptions`, { headers: { authorization: `Token ${consumer.token}` } })).json()) as {
      data: { checkout_id: string; mandate_id: string; bank_account: { mask: string } }[];
    };
    const now = listed.data.find((d) => d.checkout_id === second.checkoutId)!;
    expect(now.bank_account.mask).toBe("2222");
    expect((await merchant(bakery.apiKey, "GET", `/api/merchants/mandates/${now.mandate_id}`)).body).toMatchObject({ status: "active", validation: { method: "micro_deposits" } });
    await expectAccessible(page);
    expect(cspErrors).toEqual([]);
    await mdContext.close();
  });

  it("changes the account through Plaid Link in live mode: a blocked account refused, another one used, under the live page's policy", async () => {
    // A live-mode gateway in front of the same (sandbox) services, as the hosted page's live test:
    // Plaid's script is the stand-in served at Plaid's URL, its public token the sandbox bank's.
    const live = await buildApp({ transport: stack.transport, logger: silentLogger(), apiKeyCacheMs: 0, rateLimitPerMinute: 1000, services: [], sandbox: false });
    const liveBase = await live.listen({ host: "127.0.0.1", port: 0 });
    const liveContext = await browser.newContext({ viewport: { width: 375, height: 780 } });
    try {
      const page = await liveContext.newPage();
      const cspErrors: string[] = [];
      page.on("console", (m) => {
        if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
      });
      const consumer = await signIn(page, liveBase);
      await routeFakePlaidLink(page, (linkToken) =>
        stack.app.inject({ method: "POST", url: "/api/sandbox/consumers/public_token", headers: { authorization: `Token ${consumer.token}` }, payload: { link_token: linkToken } }),
      );
      const { sub } = await blockedSubscription(consumer);

      await page.getByRole("link", { name: "Subscriptions" }).click();
      const card = await blockedCard(page);
      await card.getByRole("link", { name: "Change bank account for Corner Bakery" }).focus();
      await page.keyboard.press("Enter");
      await heading(page, "Change the bank account");
      expect(await page.textContent("body")).not.toContain("Sandbox");
      expect(await page.getByRole("region", { name: "Debit authorization" }).textContent()).toContain("you authorize Corner Bakery to debit");
      await expectAccessible(page);
      await expectFits(page);

      // Keyboard only: open Link, take the blocked checking account; refused, with Link to open again.
      const linkAndChoose = async (account: RegExp) => {
        await page.getByRole("button", { name: "Connect your bank" }).focus();
        await page.keyboard.press("Enter");
        await page.getByLabel(account).waitFor();
        expect(await page.getByRole("status").textContent()).toContain("Bank connected");
        // Link's script ran with the response's nonce (the CSP allows nothing else of Plaid's to run).
        expect(await page.evaluate("window.linkScriptNonce")).toMatch(/^[A-Za-z0-9+/]{22}==$/);
        await page.getByLabel(account).focus();
        await page.keyboard.press("Space");
        expect(await page.getByLabel(account).isChecked()).toBe(true);
        await expectAccessible(page);
        await expectFits(page);
        await page.getByRole("button", { name: "Accept and use this account" }).focus();
        await page.keyboard.press("Enter");
      };
      await linkAndChoose(/Plaid Checking/);
      await heading(page, "Change the bank account");
      expect(await page.getByRole("alert").textContent()).toContain("That bank account is blocked");
      await expectAccessible(page);

      await linkAndChoose(/Plaid Saving/);
      await heading(page, "Subscriptions");
      expect(await page.getByRole("status").textContent()).toContain("Bank account changed");
      expect(await card.textContent()).toContain("ending 1111");
      expect(await card.textContent()).not.toContain("Blocked");
      const listed = (await (await fetch(`${base}/api/consumers/subscriptions`, { headers: { authorization: `Token ${consumer.token}` } })).json()) as {
        data: { checkout_id: string; bank_account: { mask: string; blocked: boolean } }[];
      };
      expect(listed.data.find((d) => d.checkout_id === sub.checkoutId)!.bank_account).toMatchObject({ mask: "1111", blocked: false });
      expect(cspErrors).toEqual([]);
    } finally {
      await liveContext.close();
      await live.close();
    }
  });
});
