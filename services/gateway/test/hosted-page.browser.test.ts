import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "@payrail/gateway";
import { sha256Hex, silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { eventually } from "../../../test/support/eventually.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { randomPhone } from "./support/bank-linking.ts";
import { browserSkipReason, launchChromium, routeFakePlaidLink, seriousAxeViolations, startShop, waitForStep } from "./support/browser.ts";

const skipReason = browserSkipReason();
/** `PAGE_SCREENSHOTS=1` also writes the README's screenshots to docs/. */
const DOCS = join(dirname(fileURLToPath(import.meta.url)), "../../../docs");
/** The merchant's image host: the test itself answers it (the network is closed), never the internet. */
const IMAGES = "https://images.shop.example/";
/** A 1×1 PNG, the picture every item's https URL is answered with. */
const PIXEL = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

/**
 * The hosted page in a real browser (Debian's chromium through playwright-core): a consumer
 * opens the `url` of generate_link_token and ends at the merchant's confirm URL with a saved
 * bank account. One browser for the file, a fresh context (no shared state) per test. The
 * services run in-process: the page is what is under test here; the HTTP suites cover the
 * routes on RabbitMQ + MongoDB.
 */
// Generous per-test time: a whole consumer journey in a browser on a busy two-core machine.
describe.skipIf(!!skipReason)("the hosted page in chromium", { timeout: 90_000 }, () => {
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
    // The fields read here (ids, urls, codes, statuses) are all strings.
    return { status: reply.status, body: (await reply.json()) as Record<string, string> };
  };

  /** A checkout that returns to the local shop, its item's picture on IMAGES, and its hosted page's url (over real HTTP). */
  async function checkout(overrides: Record<string, unknown> = {}): Promise<{ id: string; url: string; linkToken: string }> {
    const items = (sampleCheckout().items as Record<string, unknown>[]).map((item) => ({ ...item, image: `${IMAGES}widget.png` }));
    const created = await merchant("POST", "/api/merchants/checkout", {
      ...sampleCheckout({ redirect_confirm_url: `${shop.url}/confirm?order=1001`, redirect_cancel_url: `${shop.url}/cancel`, items, ...overrides }),
    });
    expect(created.status).toBe(200);
    const link = await merchant("GET", `/api/merchants/checkout/${created.body.id}/generate_link_token`);
    expect(link.status).toBe(200);
    return { id: created.body.id!, url: link.body.url!, linkToken: link.body.link_token! };
  }

  /**
   * A page in a fresh context that fails the test on any request off the gateway, the shop and
   * its image host, or a CSP report. The image host answers PIXEL, and 404 to `missing-*`.
   */
  async function open(width = 375): Promise<{ page: Page; foreign: string[]; cspErrors: string[] }> {
    const context = await browser.newContext({ viewport: { width, height: 780 } });
    contexts.push(context);
    await context.route(`${IMAGES}**`, (route) =>
      route.request().url().includes("/missing-") ? route.fulfill({ status: 404, body: "" }) : route.fulfill({ contentType: "image/png", body: PIXEL }),
    );
    const page = await context.newPage();
    const foreign: string[] = [];
    const cspErrors: string[] = [];
    page.on("request", (r) => {
      if (![base, shop.url, IMAGES].some((allowed) => r.url().startsWith(allowed))) foreign.push(r.url());
    });
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    return { page, foreign, cspErrors };
  }

  /** Waits for the step whose heading is `title` (the page's one h1, focused on each step). */
  const step = (page: Page, title: string) => waitForStep(page, title);
  const codeFor = async (phone: string) => (await merchant("GET", `/api/sandbox/verification_codes/${encodeURIComponent(phone)}`)).body.code!;
  /** The README's screenshots, with PAGE_SCREENSHOTS=1 (the 375 px one is taken on every run). */
  const screenshot = async (page: Page, name: string, always = false) => {
    if (!always && process.env.PAGE_SCREENSHOTS !== "1") return null;
    const png = await page.screenshot({ fullPage: true });
    if (process.env.PAGE_SCREENSHOTS === "1") {
      await mkdir(DOCS, { recursive: true });
      await writeFile(join(DOCS, name), png);
    }
    return png;
  };
  const expectAccessible = async (page: Page) => expect(await seriousAxeViolations(page)).toEqual([]);

  it("takes a consumer from the link to the merchant's confirm URL, and the merchant's transfer then starts", async () => {
    const { id, url } = await checkout();
    const { page, foreign, cspErrors } = await open();
    await page.goto(url);
    await step(page, "Pay $107.50");
    expect(await page.textContent("main")).toContain("To Corner Bakery");
    expect(await page.textContent("main")).toContain("Widget");
    expect(await page.textContent("main")).toContain("Sandbox");
    // 375 px: the whole page fits the phone's width, nothing scrolls sideways.
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(375);
    const png = (await screenshot(page, "hosted-page-summary.png", true))!;
    expect(png.readUInt32BE(16)).toBe(375); // the PNG's width, from its header
    await expectAccessible(page);

    await page.getByRole("button", { name: "Pay by bank" }).click();
    const phone = randomPhone();
    await page.getByLabel("Mobile phone number").fill(phone);
    await page.getByRole("button", { name: "Text me a code" }).click();
    await step(page, "Enter your code");
    expect(await page.getByRole("button", { name: /Send a new code \(in \d+ s\)/ }).isDisabled()).toBe(true);
    await page.getByLabel("Six-digit code").fill(await codeFor(phone));
    await screenshot(page, "hosted-page-code.png");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Confirm" }).click();

    await step(page, "Choose an account (sandbox bank)");
    await page.getByLabel(/Plaid Saving/).check();
    // The debit authorization, with the amount and "one-time", stands above the pay button.
    const authorization = page.getByRole("region", { name: "Debit authorization" });
    expect(await authorization.textContent()).toContain("you authorize Corner Bakery to debit the bank account you choose for a one-time payment of $107.50");
    expect(await authorization.textContent()).toContain("/account");
    const textBox = (await authorization.boundingBox())!;
    const payBox = (await page.getByRole("button", { name: "Pay from this account" }).boundingBox())!;
    expect(textBox.y + textBox.height).toBeLessThanOrEqual(payBox.y);
    await screenshot(page, "hosted-page-accounts.png");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Pay from this account" }).click();
    await step(page, "Bank account linked");
    expect(await page.getByRole("link", { name: "your payments account" }).getAttribute("href")).toBe("/account");
    // The automatic return is announced and leaves time to hear the step (not 1 or 2.5 s).
    await page.getByRole("status").filter({ hasText: "Taking you back to Corner Bakery in 10 seconds." }).waitFor();
    const linkedAt = Date.now();
    await page.waitForURL(`${shop.url}/confirm?order=1001&checkout_id=${id}`, { timeout: 20_000 });
    expect(Date.now() - linkedAt).toBeGreaterThan(8_000);

    // Nothing but the gateway and the shop was contacted, nothing was kept in the browser.
    expect(foreign).toEqual([]);
    expect(cspErrors).toEqual([]);
    expect(await page.evaluate("localStorage.length + sessionStorage.length + document.cookie.length")).toBe(0);
    const view = await merchant("GET", `/api/merchants/checkout/${id}`);
    expect(view.body.status).toBe("payment_method_saved");
    const paid = await merchant("POST", "/api/merchants/payment_preprocess/get_processor_token", { checkout_id: id });
    expect(paid).toMatchObject({ status: 200, body: { message: "Transaction executed" } });
    // The acceptance was recorded from the page's own request: its address and browser.
    const mandateId = await eventually(async () => {
      const shown = (await merchant("GET", `/api/merchants/checkout/${id}`)).body.mandate_id;
      expect(shown).toMatch(/^mdt_/);
      return shown!;
    });
    const mandate = await merchant("GET", `/api/merchants/mandates/${mandateId}`);
    expect(mandate.body).toMatchObject({ checkout_id: id, type: "one_off", status: "active", ip_address: "127.0.0.1", user_agent: await page.evaluate("navigator.userAgent") });
    expect(mandate.body.text_version).toMatch(/^\d{4}-\d{2}-\d{2}\.\d+$/);
  });

  it("shows each item's https picture in a fixed box beside it, no http one, and a broken one moves nothing", async () => {
    const item = (name: string, image: string) => ({ name, sku: name, quantity: 2, price: { amount: 2500, currency: "USD" }, image });
    const { url } = await checkout({
      items: [item("Mug", `${IMAGES}mug.png`), item("Plain", "http://images.shop.example/plain.png"), item("Lost", `${IMAGES}missing-lost.png`)],
    });
    const { page, foreign, cspErrors } = await open();
    const imageRequests: { url: string; referer: string | undefined }[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "image" && r.url().includes("shop.example")) imageRequests.push({ url: r.url(), referer: r.headers()["referer"] });
    });
    await page.goto(url);
    await step(page, "Pay $107.50");
    const mug = page.getByRole("img", { name: "Mug" });
    expect(await mug.evaluate((img) => Object.fromEntries(["src", "alt", "width", "height", "loading", "referrerpolicy"].map((a) => [a, img.getAttribute(a)])))).toEqual({
      src: `${IMAGES}mug.png`,
      alt: "Mug",
      width: "48",
      height: "48",
      loading: "lazy",
      referrerpolicy: "no-referrer",
    });
    // Loaded, under the page's CSP (img-src https:), and sent without the page's address.
    // The tests are compiled without the DOM's types: an image's two properties, as they are.
    type Loaded = { complete: boolean; naturalWidth: number };
    await expect.poll(() => mug.evaluate((img) => (img as unknown as Loaded).complete && (img as unknown as Loaded).naturalWidth), { timeout: 20_000 }).toBe(1);
    // The http picture is not on the page, nor asked for; the row still names its item.
    expect(await page.locator("main img").count()).toBe(2);
    expect(await page.textContent("main")).toContain("Plain × 2");
    const lost = page.locator("main img[alt='Lost']");
    await expect.poll(() => lost.getAttribute("class"), { timeout: 20_000 }).toBe("broken");
    expect(imageRequests.map((r) => r.url).sort()).toEqual([`${IMAGES}missing-lost.png`, `${IMAGES}mug.png`]);
    expect(imageRequests.every((r) => r.referer === undefined)).toBe(true);
    // The same fixed box, loaded or broken: the two items with a picture take the same room.
    for (const img of [mug, lost]) expect(await img.boundingBox()).toMatchObject({ width: 48, height: 48 });
    const heights = await page.locator("main .item").evaluateAll((items) => items.map((item) => item.getBoundingClientRect().height));
    expect(heights[2]).toBe(heights[0]);
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(375);
    await expectAccessible(page);
    expect(foreign).toEqual([]);
    expect(cspErrors).toEqual([]);
  });

  it("can be used with the keyboard alone, at desktop width", async () => {
    const { id, url } = await checkout({ is_subscription: true, plan_type: "monthly" });
    const { page } = await open(1280);
    await page.goto(url);
    await step(page, "Pay $107.50");
    expect(await page.textContent("main")).toContain("billed every month");
    await screenshot(page, "hosted-page-desktop.png");
    // Focus starts on the step's heading; the next stop is the step's main action.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    const phone = randomPhone();
    await page.keyboard.type(phone);
    await page.keyboard.press("Enter");
    await step(page, "Enter your code");
    await page.keyboard.type(await codeFor(phone));
    await page.keyboard.press("Enter");
    await step(page, "Choose an account (sandbox bank)");
    expect(await page.getByRole("region", { name: "Debit authorization" }).textContent()).toContain("$107.50 every month, starting on");
    await page.keyboard.press("Tab"); // the first account, already chosen
    await page.keyboard.press("ArrowDown"); // the second
    await page.keyboard.press("Tab"); // the pay button
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Pay from this account");
    await page.keyboard.press("Enter");
    await step(page, "Bank account linked");
    // "Stay on this page" stops the automatic return; the consumer returns when ready.
    await page.keyboard.press("Tab"); // "Return to Corner Bakery"
    await page.keyboard.press("Tab"); // "Stay on this page"
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Stay on this page");
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "You stay here. Return to Corner Bakery when you are ready." }).waitFor();
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Return to Corner Bakery");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${shop.url}/confirm?order=1001&checkout_id=${id}`);
  });

  it("accepts US numbers typed the usual way, (415) 555-2676, 4155552676 and 415-555-2676, with a hint that says so", async () => {
    for (const form of ["(415) %%%-%%%%", "415%%%%%%%", "415-%%%-%%%%"]) {
      const digits = randomPhone().slice(5); // seven fresh digits after +1415
      let i = 0;
      const typed = form.replace(/%/g, () => digits[i++]!);
      const { url } = await checkout();
      const { page } = await open();
      await page.goto(url);
      await page.getByRole("button", { name: "Pay by bank" }).click();
      expect(await page.locator("#phone-hint").textContent()).toBe(
        "A number in the US as you usually write it, e.g. (415) 555-2671; other countries with + and the country code, e.g. +44 7700 900123.",
      );
      await page.getByLabel("Mobile phone number").fill(typed);
      await page.getByRole("button", { name: "Text me a code" }).click();
      await step(page, "Enter your code");
      await page.getByLabel("Six-digit code").fill(await codeFor(`+1415${digits}`));
      await page.getByRole("button", { name: "Confirm" }).click();
      await step(page, "Choose an account (sandbox bank)");
      await page.context().close();
    }
  });

  it("says how many tries a wrong code leaves, then locks the code out", async () => {
    const { url } = await checkout();
    const { page } = await open();
    await page.goto(url);
    await page.getByRole("button", { name: "Pay by bank" }).click();
    const phone = randomPhone();
    await page.getByLabel("Mobile phone number").fill(phone);
    await page.getByRole("button", { name: "Text me a code" }).click();
    await step(page, "Enter your code");
    const right = await codeFor(phone);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
    const alert = page.getByRole("alert");
    for (const left of ["4 attempts left", "3 attempts left", "2 attempts left", "1 attempt left"]) {
      await page.getByLabel("Six-digit code").fill(wrong);
      await page.getByRole("button", { name: "Confirm" }).click();
      await alert.filter({ hasText: `That code is not right. ${left}.` }).waitFor();
      expect(await page.getByLabel("Six-digit code").getAttribute("aria-invalid")).toBe("true");
    }
    await expectAccessible(page);
    await page.getByLabel("Six-digit code").fill(wrong);
    await page.getByRole("button", { name: "Confirm" }).click();
    await alert.filter({ hasText: /^Too many wrong codes/ }).waitFor();
    expect(await page.getByRole("button", { name: "Confirm" }).isDisabled()).toBe(true);
    // Even the right code no longer works: the consumer must ask for a new one.
    const verify = await fetch(`${base}/api/verify_user/verify_code`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ phone, verification_code: right }),
    });
    expect(verify.status).toBe(429);
  });

  it("returns to the merchant's cancel URL from any step", async () => {
    const { id, url } = await checkout();
    const { page } = await open();
    await page.goto(url);
    await page.getByRole("button", { name: "Pay by bank" }).click();
    await page.getByRole("button", { name: "Cancel and return to the merchant" }).click();
    await page.waitForURL(`${shop.url}/cancel?checkout_id=${id}`);
  });

  it("explains a paid checkout, an expired link and a broken link instead of showing a blank page", async () => {
    const paid = await checkout();
    await store.collection("checkouts").findOneAndUpdate({ _id: paid.id }, { $set: { status: "paid" } });
    const expired = await checkout();
    await store.collection("link_tokens").findOneAndUpdate({ _id: sha256Hex(expired.linkToken) }, { $set: { expiresAt: new Date(Date.now() - 1000).toISOString() } });
    const { page } = await open();
    const cases: [string, string][] = [
      [paid.url, "This order is already paid"],
      [expired.url, "This payment link has expired"],
      [paid.url.replace(/#.*/, "#link_token=not-a-real-token"), "This payment link does not work"],
      [`${base}/pay/chk_00000000000000000000000000000000`, "This payment link is incomplete"],
    ];
    for (const [url, title] of cases) {
      await page.goto(url);
      await step(page, title);
    }
    // The messages share one layout: one axe pass, on one with its way back to the shop.
    await page.goto(paid.url);
    await page.getByRole("link", { name: "Return to Corner Bakery" }).waitFor();
    await expectAccessible(page);
  });

  it("links the bank through Plaid Link in live mode, under the live page's policy", async () => {
    // A live-mode gateway in front of the same (sandbox) services: the page takes its live path.
    // Plaid's script is stood in for by one that answers like Link, with a public token from the
    // sandbox bank; it is served as Plaid's URL, so the page's CSP and nonce are what let it run.
    const live = await buildApp({ transport: stack.transport, logger: silentLogger(), apiKeyCacheMs: 0, rateLimitPerMinute: 1000, services: [], sandbox: false });
    const liveBase = await live.listen({ host: "127.0.0.1", port: 0 });
    let opened: Page | undefined;
    try {
      const { id, linkToken } = await checkout();
      const { page, cspErrors } = await open();
      opened = page;
      await routeFakePlaidLink(page, (linkToken) =>
        stack.app.inject({ method: "POST", url: "/api/sandbox/public_token", headers: { "api-key": apiKey }, payload: { link_token: linkToken } }),
      );
      await page.goto(`${liveBase}/pay/${id}#link_token=${encodeURIComponent(linkToken)}`);
      await step(page, "Pay $107.50");
      expect(await page.textContent("main")).not.toContain("Sandbox");
      await page.getByRole("button", { name: "Pay by bank" }).click();
      const phone = randomPhone();
      await page.getByLabel("Mobile phone number").fill(phone);
      await page.getByRole("button", { name: "Text me a code" }).click();
      await step(page, "Enter your code");
      await page.getByLabel("Six-digit code").fill(await codeFor(phone));
      await page.getByRole("button", { name: "Confirm" }).click();
      await step(page, "Choose an account");
      expect(await page.evaluate("window.linkScriptNonce")).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      await page.getByRole("button", { name: "Pay from this account" }).click();
      await step(page, "Bank account linked");
      await page.getByRole("link", { name: "Return to Corner Bakery" }).click();
      await page.waitForURL(`${shop.url}/confirm?order=1001&checkout_id=${id}`);
      expect(cspErrors).toEqual([]);
    } finally {
      // The browser first: a keep-alive socket it still holds would keep the server's close waiting.
      await opened?.context().close();
      await live.close();
    }
  });
});
