import type { Store } from "@payrail/store";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { randomPhone } from "./support/bank-linking.ts";
import { browserSkipReason, launchChromium, seriousAxeViolations, startShop, waitForStep } from "./support/browser.ts";

const skipReason = browserSkipReason();

/**
 * Micro-deposits on the hosted page in a real browser (docs/decisions/0041-account-validation.md):
 * the consumer who picks the sandbox's "Unverifiable Checking" is told the deposits are on their
 * way and asked for the two amounts; wrong pairs say the tries left, the third locks the account
 * and the page offers another; each step passes axe. Services in-process, as the hosted page's
 * own browser test runs them.
 */
describe.skipIf(!!skipReason)("micro-deposits on the hosted page in chromium", { timeout: 90_000 }, () => {
  const variant = embeddedVariant();
  let stack: Stack;
  let store: Store;
  let apiKey: string;
  let base: string;
  let shop: Awaited<ReturnType<typeof startShop>>;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [stack, shop, browser] = await Promise.all([startStack(variant), startShop(), launchChromium()]);
    store = await variant.store();
    apiKey = (await stack.merchant("Corner Bakery")).apiKey;
    base = await stack.app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
    await stack?.close();
    await variant.cleanup();
  });

  const merchant = async (method: "GET" | "POST", path: string, body?: unknown) => {
    const reply = await fetch(`${base}${path}`, {
      method,
      headers: { "api-key": apiKey, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : null,
    });
    return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
  };

  /** Through the consumer's steps to the account picker, for a new checkout; the checkout's id. */
  async function toAccounts(page: Page): Promise<string> {
    const created = await merchant("POST", "/api/merchants/checkout", sampleCheckout({ redirect_confirm_url: `${shop.url}/confirm`, redirect_cancel_url: `${shop.url}/cancel` }));
    const id = created.body.id as string;
    const link = await merchant("GET", `/api/merchants/checkout/${id}/generate_link_token`);
    await page.goto(link.body.url as string);
    await waitForStep(page, "Pay $107.50");
    await page.getByRole("button", { name: "Pay by bank" }).click();
    const phone = randomPhone();
    await page.getByLabel("Mobile phone number").fill(phone);
    await page.getByRole("button", { name: "Text me a code" }).click();
    await waitForStep(page, "Enter your code");
    await page.getByLabel("Six-digit code").fill((await merchant("GET", `/api/sandbox/verification_codes/${encodeURIComponent(phone)}`)).body.code as string);
    await page.getByRole("button", { name: "Confirm" }).click();
    await waitForStep(page, "Choose an account (sandbox bank)");
    return id;
  }

  async function open(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 375, height: 780 } });
    contexts.push(context);
    return context.newPage();
  }

  /** The pair the sandbox sent (what its notice shows the consumer), read from the simulator. */
  async function sentAmounts(checkoutId: string): Promise<[string, string]> {
    const method = await store.collection<{ _id: string; microDeposits: { reference: string } }>("payment_methods").findOne({ _id: checkoutId });
    const pair = await store.collection<{ _id: string; amountsCents: number[] }>("sandbox_micro_deposits").findOne({ _id: method!.microDeposits.reference.split("/").at(-1)! });
    return pair!.amountsCents.map((c) => `0.${String(c).padStart(2, "0")}`) as [string, string];
  }

  const expectAccessible = async (page: Page) => expect(await seriousAxeViolations(page)).toEqual([]);
  const enter = async (page: Page, [a, b]: readonly string[]) => {
    await page.getByLabel("First deposit ($)").fill(a!);
    await page.getByLabel("Second deposit ($)").fill(b!);
    await page.getByRole("button", { name: "Confirm my account" }).click();
  };

  it("asks for the two amounts after Unverifiable Checking, says the tries left after a wrong pair, and links the account with the right one", async () => {
    const page = await open();
    const id = await toAccounts(page);
    await page.getByLabel(/Unverifiable Checking/).check();
    await page.getByRole("button", { name: "Pay from this account" }).click();
    await waitForStep(page, "Confirm your bank account");
    expect(await page.textContent("main")).toContain("two small deposits of less than $1 each. They are on their way.");
    expect(await page.textContent("#amounts-tries")).toBe("You have 3 tries left.");
    await expectAccessible(page);
    // The merchant's debit waits for the consumer.
    expect((await merchant("POST", "/api/merchants/payment_preprocess/get_processor_token", { checkout_id: id })).status).toBe(409);

    await enter(page, ["1.50", "0.10"]);
    expect(await page.getByRole("alert").textContent()).toContain("under $1.00");
    const sent = await sentAmounts(id);
    const wrong = ["0.99", "0.98", "0.97", "0.96"].filter((x) => !sent.includes(x)).slice(0, 2);
    await enter(page, wrong);
    await page.locator("#amounts-tries", { hasText: "You have 2 tries left." }).waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("Those are not the two amounts we sent");
    expect(await page.getByLabel("First deposit ($)").getAttribute("aria-invalid")).toBe("true");
    await expectAccessible(page);

    await enter(page, [sent[1], sent[0]]);
    await waitForStep(page, "Bank account linked");
    expect((await merchant("POST", "/api/merchants/payment_preprocess/get_processor_token", { checkout_id: id })).body).toMatchObject({ message: "Transaction executed" });
  });

  it("locks the account at the third wrong pair and offers to link another, which pays", async () => {
    const page = await open();
    const id = await toAccounts(page);
    await page.getByLabel(/Unverifiable Checking/).check();
    await page.getByRole("button", { name: "Pay from this account" }).click();
    await waitForStep(page, "Confirm your bank account");
    const sent = await sentAmounts(id);
    const wrong = ["0.99", "0.98", "0.97", "0.96"].filter((x) => !sent.includes(x)).slice(0, 2);
    for (const left of ["You have 2 tries left.", "You have 1 try left."]) {
      await enter(page, wrong);
      await page.locator("#amounts-tries", { hasText: left }).waitFor();
    }
    await enter(page, wrong);
    await waitForStep(page, "This account cannot be used");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Link another account" }).click();
    await waitForStep(page, "Choose an account (sandbox bank)");
    await page.getByLabel(/Plaid Checking/).check();
    await page.getByRole("button", { name: "Pay from this account" }).click();
    await waitForStep(page, "Bank account linked");
    expect((await merchant("POST", "/api/merchants/payment_preprocess/get_processor_token", { checkout_id: id })).body).toMatchObject({ message: "Transaction executed" });
  });
});
