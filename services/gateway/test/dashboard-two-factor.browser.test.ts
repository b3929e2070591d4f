import { randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { startStack, ADMIN_TOKEN, type Stack } from "../../../test/support/stack.ts";
import { axeViolations, browserSkipReason, expectFits375, launchChromium, openPage } from "./support/browser.ts";
import { DASHBOARD_PASSWORD } from "./support/dashboard-session.ts";

const skipReason = browserSkipReason();

/** The code an authenticator app shows, `steps` 30-second steps from now (same library as identity). */
const codeAt = (secret: string, steps = 0) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: Date.now() + steps * 30_000 });

/**
 * Two-factor sign-in in a real browser at 375 px (docs/decisions/0052-dashboard-two-factor-and-reset.md):
 * a user enrols on the Security page (QR code and key), keeps the recovery codes, signs out, and
 * signs in again with the password and then a code typed from the keyboard; the forgot-password
 * and reset pages too. axe and the 375 px check on each page.
 */
describe.skipIf(!!skipReason)("dashboard two-factor sign-in in chromium", { timeout: 120_000 }, () => {
  const variant = embeddedVariant();
  let stack: Stack;
  let browser: Browser;
  let base: string;
  let merchantId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(variant), launchChromium()]);
    merchantId = (await stack.merchant("Corner Bakery")).id;
    base = await stack.app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await stack?.close();
    await variant.cleanup();
  });

  const open = () => openPage(browser, contexts, 375, 800);

  const heading = (page: Page, title: string) => page.getByRole("heading", { level: 1, name: title }).waitFor();
  const checkPage = async (page: Page) => {
    expect(await axeViolations(page), page.url()).toEqual([]);
    await expectFits375(page);
  };

  /** Email and password from the keyboard. */
  async function typePassword(page: Page, email: string): Promise<void> {
    await page.goto(`${base}/dashboard/sign-in`);
    await heading(page, "Sign in");
    await page.getByLabel("Email").focus();
    await page.keyboard.type(email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(DASHBOARD_PASSWORD);
    await page.keyboard.press("Enter");
  }

  it("enrols with the QR page, keeps the recovery codes, and signs in with the password and then a code", async () => {
    const email = `owner-${randomBytes(4).toString("hex")}@bakery.example`;
    const invited = await fetch(`${base}/api/admin/merchants/${merchantId}/users`, {
      method: "POST",
      headers: { "x-admin-token": ADMIN_TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ email, role: "owner" }),
    });
    const { url } = (await invited.json()) as { url: string };
    const { page, cspErrors } = await open();
    await page.goto(url);
    await page.getByLabel("New password").fill(DASHBOARD_PASSWORD);
    await page.getByLabel("Repeat the password").fill(DASHBOARD_PASSWORD);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByText("Password set.").waitFor();

    await typePassword(page, email);
    await heading(page, "Overview");
    await page.getByRole("link", { name: "Security" }).click();
    await heading(page, "Security");
    await checkPage(page);
    await page.getByRole("button", { name: "Set up two-factor" }).click();
    await heading(page, "Set up two-factor");
    expect(await page.getByRole("img", { name: "QR code of the two-factor secret" }).isVisible()).toBe(true);
    await checkPage(page);
    const secret = (await page.locator("#totp-secret").textContent())!.trim();
    await page.getByLabel("The six-digit code the app shows").fill(codeAt(secret));
    await page.getByRole("button", { name: "Turn on two-factor" }).click();
    await page.getByText("Two-factor is on.").waitFor();
    expect(await page.locator("#recovery-codes li").count()).toBe(10);
    await checkPage(page);

    await page.getByRole("button", { name: "Sign out" }).click();
    await heading(page, "Sign in");
    await typePassword(page, email);
    await heading(page, "Two-factor sign-in");
    await checkPage(page);
    // A wrong code first: the same page, with the error announced.
    await page.getByLabel("Code").focus();
    await page.keyboard.type("000000" === codeAt(secret, 1) ? "111111" : "000000");
    await page.keyboard.press("Enter");
    await page.getByRole("alert").getByText("That code is wrong or was already used.").waitFor();
    await checkPage(page);
    // The step enrolment took is spent: the app's next code (one step of drift is accepted).
    await page.getByLabel("Code").focus();
    await page.keyboard.type(codeAt(secret, 1));
    await page.keyboard.press("Enter");
    await heading(page, "Overview");
    expect(cspErrors).toEqual([]);
  });

  it("shows the forgot-password and reset pages accessibly, linked from the sign-in page", async () => {
    const { page, cspErrors } = await open();
    await page.goto(`${base}/dashboard/sign-in`);
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await heading(page, "Reset your password");
    await checkPage(page);
    await page.getByLabel("Email").fill("nobody@bakery.example");
    await page.getByRole("button", { name: "Email me a link" }).click();
    await page.getByText("If that email belongs to a dashboard user").waitFor();
    await checkPage(page);
    await page.goto(`${base}/dashboard/reset?token=unknown-token`);
    await heading(page, "Choose a new password");
    await checkPage(page);
    await page.getByLabel("New password").fill("a brand new passphrase");
    await page.getByLabel("Repeat the password").fill("a brand new passphrase");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByText("This link is unknown, used or expired").waitFor();
    await checkPage(page);
    expect(cspErrors).toEqual([]);
  });
});
