import { buildApp } from "@payrail/gateway";
import { silentLogger } from "@payrail/runtime";
import type { FastifyInstance } from "fastify";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { browserSkipReason, launchChromium } from "./support/browser.ts";

const skipReason = browserSkipReason();

/**
 * Issue 14's "done when": `/docs` in a real browser (Debian's chromium). A merchant developer
 * clicks Authorize, enters an api-key, and Try-it on List Checkouts then sends it and gets 200.
 */
describe.skipIf(!!skipReason)("/docs in chromium", { timeout: 90_000 }, () => {
  const variant = embeddedVariant();
  let stack: Stack;
  let browser: Browser;
  let base: string;
  let apiKey: string;
  /** The same services behind a gateway without ADMIN_TOKEN: its admin routes are off. */
  let noAdmin: FastifyInstance;
  let noAdminBase: string;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(variant), launchChromium()]);
    apiKey = (await stack.merchant("Docs Reader")).apiKey;
    base = await stack.app.listen({ host: "127.0.0.1", port: 0 });
    noAdmin = await buildApp({ transport: stack.transport, logger: silentLogger(), apiKeyCacheMs: 0, rateLimitPerMinute: 100_000, services: [], sandbox: true });
    noAdminBase = await noAdmin.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await noAdmin?.close();
    await browser?.close();
    await stack?.close();
    await variant.cleanup();
  });

  it("sends the api-key entered in Authorize with Try-it, and shows the 200", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const sent: (string | undefined)[] = [];
    page.on("request", (r) => {
      if (r.url().startsWith(`${base}/api/merchants/checkout`)) sent.push(r.headers()["api-key"]);
    });
    await page.goto(`${base}/docs`);
    await page.getByRole("button", { name: /authorize/i }).first().click();
    // The api-key scheme's box in the Authorize dialog (the first text box of the dialog).
    const dialog = page.locator(".modal-ux");
    const box = dialog.locator("input[type=text], input[type=password]").first();
    await box.fill(apiKey);
    // Swagger UI's own classes: the dialog's Authorize ("Apply credentials") and Close buttons.
    await dialog.locator("button.modal-btn.authorize").first().click();
    await dialog.locator("button.btn-done").first().click();

    const operation = page.locator(".opblock-get").filter({ hasText: "/api/merchants/checkout" }).filter({ hasNotText: "{checkout_id}" }).first();
    await operation.locator(".opblock-summary").click();
    await operation.getByRole("button", { name: /try it out/i }).click();
    await operation.getByRole("button", { name: /execute/i }).click();
    await expect.poll(() => sent.length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(sent[0]).toBe(apiKey);
    await expect.poll(async () => (await operation.locator(".live-responses-table tr.response .response-col_status").first().textContent())?.trim(), { timeout: 20_000 }).toBe("200");
    await context.close();
  });

  /** Opens /docs at `at` and its Authorize dialog; answers the dialog's scheme titles. */
  async function openAuthorize(page: Page, at: string): Promise<string[]> {
    await page.goto(`${at}/docs`);
    await page.getByRole("button", { name: /authorize/i }).first().click();
    await page.locator(".modal-ux input").first().waitFor();
    return (await page.locator(".modal-ux h4").allTextContents()).map((t) => t.replace(/\s+/g, " ").trim());
  }

  it("opens Authorize at the api-key box, and shows the admin token only where admin routes exist", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    expect(await openAuthorize(page, base)).toEqual(["apiKey (apiKey)", "authToken (apiKey)", "linkToken (apiKey)", "adminToken (apiKey)"]);
    // swagger-ui autofocuses every box (the last wins, scrolling past the first): /docs puts focus back on the api-key box.
    await expect.poll(() => page.evaluate(`document.querySelector(".modal-ux-content").scrollTop`)).toBe(0);
    const apiKeyBox = page.locator(".modal-ux .auth-container").first().locator("input");
    await expect.poll(() => apiKeyBox.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(await apiKeyBox.isVisible()).toBe(true);

    expect(await openAuthorize(page, noAdminBase)).toEqual(["apiKey (apiKey)", "authToken (apiKey)", "linkToken (apiKey)"]);
    await context.close();
  });

  it("prefills Create Checkout with a merchant_checkout_id of its own on every render, so Try-it creates each time", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const statuses: number[] = [];
    page.on("response", (r) => {
      if (r.request().method() === "POST" && r.url() === `${base}/api/merchants/checkout`) statuses.push(r.status());
    });
    const ids: string[] = [];
    for (let render = 1; render <= 2; render++) {
      await openAuthorize(page, base);
      const dialog = page.locator(".modal-ux");
      await dialog.locator(".auth-container").first().locator("input").fill(apiKey);
      await dialog.locator("button.modal-btn.authorize").first().click();
      await dialog.locator("button.btn-done").first().click();
      const operation = page.locator(".opblock-post").filter({ hasText: "/api/merchants/checkout" }).first();
      await operation.locator(".opblock-summary").click();
      await operation.getByRole("button", { name: /try it out/i }).click();
      const body = JSON.parse(await operation.locator("textarea.body-param__text").inputValue()) as { merchant_checkout_id: string };
      ids.push(body.merchant_checkout_id);
      await operation.getByRole("button", { name: /execute/i }).click();
      await expect.poll(() => statuses.length, { timeout: 20_000 }).toBe(render);
    }
    expect(ids[0]).toMatch(/^order-[0-9a-f]{8}$/);
    expect(ids[1]).not.toBe(ids[0]);
    expect(statuses).toEqual([200, 200]);
    await context.close();
  });
});
