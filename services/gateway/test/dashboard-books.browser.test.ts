import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { ADMIN_TOKEN } from "../../../test/support/stack.ts";
import { eventually } from "../../../test/support/eventually.ts";
import { axeViolations, browserSkipReason, expectFits375, launchChromium, openPage } from "./support/browser.ts";
import { DASHBOARD_PASSWORD } from "./support/dashboard-session.ts";
import { payment, refundClient } from "./support/refund-flow.ts";
import { withWebhooksStack } from "./support/webhooks-stack.ts";

const skipReason = browserSkipReason();
/** `PAGE_SCREENSHOTS=1` also writes the README's screenshots to docs/. */
const DOCS = join(dirname(fileURLToPath(import.meta.url)), "../../../docs");
const today = () => new Date().toISOString().slice(0, 10);

/**
 * The dashboard's books in a real browser (Debian's chromium through playwright-core): a viewer
 * walks Balance → a payout → its reconciliation → the CSV download, filters by dates with the
 * native date inputs, reads the overview's chart as an SVG image with its text alternative, and
 * a checkout's customer; axe on every page, at 1280 and 375 px. The services run in-process
 * (the ledger with its schedule off: the walk runs the payout); the HTTP suite covers the same
 * pages on RabbitMQ + MongoDB.
 */
describe.skipIf(!!skipReason)("the dashboard's books in chromium", { timeout: 120_000 }, () => {
  const variant = embeddedVariant();
  const world = withWebhooksStack(variant, { PAYOUT_SCHEDULE: "0" }, ["ledger", "notices"]);
  let browser: Browser;
  let base: string;
  let merchant: { id: string; apiKey: string };
  let checkoutId: string;
  let email: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    merchant = await world.stack.merchant("Month End Books");
    base = await world.stack.app.listen({ host: "127.0.0.1", port: 0 });
    // Two settled debits, the second returned: a balance, a return, and a payout to make.
    const kept = await payment(world.stack, merchant.apiKey);
    const back = await payment(world.stack, merchant.apiKey);
    checkoutId = kept.checkoutId;
    expect((await refundClient(world.stack).simulate(merchant.apiKey, back.uuid, "failed")).statusCode).toBe(200);
    await eventually(async () => expect((await api("/api/merchants/balance")).json().available).toBe("107.50"));
    email = `viewer-${randomBytes(4).toString("hex")}@books.example`;
    // Through the listening address: the invitation link names the host it was asked on.
    const invited = await fetch(`${base}/api/admin/merchants/${merchant.id}/users`, {
      method: "POST",
      headers: { "x-admin-token": ADMIN_TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ email, role: "viewer" }),
    });
    const { page } = await open();
    await page.goto(((await invited.json()) as { url: string }).url);
    await page.getByLabel("New password").fill(DASHBOARD_PASSWORD);
    await page.getByLabel("Repeat the password").fill(DASHBOARD_PASSWORD);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByText("Password set.").waitFor();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
  });

  const api = (url: string) => world.stack.app.inject({ url, headers: { "api-key": merchant.apiKey } });

  const open = (width = 1280) => openPage(browser, contexts, width);
  const screenshot = async (page: Page, name: string) => {
    if (process.env.PAGE_SCREENSHOTS !== "1") return;
    await mkdir(DOCS, { recursive: true });
    await writeFile(join(DOCS, name), await page.screenshot({ fullPage: true }));
  };
  const heading = (page: Page, title: string) => page.getByRole("heading", { level: 1, name: title }).waitFor();
  const expectAccessible = async (page: Page) => expect(await axeViolations(page), page.url()).toEqual([]);
  async function signIn(page: Page): Promise<void> {
    await page.goto(`${base}/dashboard/sign-in`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(DASHBOARD_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await heading(page, "Overview");
  }
  /** Clicks a download link and answers the file's text. */
  async function download(page: Page, name: string): Promise<string> {
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name }).click()]);
    return readFile((await file.path())!, "utf8");
  }

  it("walks Balance → payout → reconciliation → export, and filters the balance by dates, axe-clean on every page", async () => {
    const run = await world.stack.app.inject({ method: "POST", url: "/api/sandbox/payouts/run", headers: { "api-key": merchant.apiKey }, payload: {} });
    const payout = run.json<{ payout: { id: string; amount: string } }>().payout;
    expect(payout.amount).toBe("107.50");
    const { page, cspErrors } = await open();
    await signIn(page);

    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Balance" }).click();
    await heading(page, "Balance and payouts");
    expect(await page.locator("main").textContent()).toContain("0.00 USD");
    await expectAccessible(page);
    await screenshot(page, "dashboard-balance-1280.png");

    await page.getByRole("region", { name: "Payouts" }).getByRole("link", { name: payout.id }).click();
    await heading(page, `Payout ${payout.id}`);
    await page.getByRole("heading", { name: "Reconciliation" }).waitFor();
    const rows = page.getByRole("region", { name: "Balance transactions" }).getByRole("row");
    // Header, the two debits and the return it pays out, and its own payout row.
    expect(await rows.count()).toBe(5);
    await expectAccessible(page);
    await screenshot(page, "dashboard-payout-1280.png");
    const csv = await download(page, "Export CSV");
    expect(csv).toBe((await api(`/api/merchants/exports/balance_transactions.csv?payout_id=${payout.id}`)).body);
    expect(csv.trim().split("\r\n")).toHaveLength(5);

    // Back on Balance: only debits, today through today (the date pickers), and their export.
    await page.goto(`${base}/dashboard/balance`);
    await page.getByLabel("Type").selectOption("debit");
    await page.getByLabel("From").fill(today());
    await page.getByLabel("To (included)").fill(today());
    await page.getByRole("button", { name: "Filter" }).click();
    await heading(page, "Balance and payouts");
    expect(new URL(page.url()).searchParams.get("to")).toBe(today());
    expect(await page.getByRole("region", { name: "Balance transactions" }).getByRole("row").count()).toBe(3);
    await expectAccessible(page);
    const debits = await download(page, "Export CSV");
    expect(debits.trim().split("\r\n").slice(1).every((line) => line.split(",")[1] === "debit")).toBe(true);
    expect(debits.trim().split("\r\n")).toHaveLength(3);

    // A date typed wrongly into a shared link: said on the page, not a server error.
    const bad = await page.goto(`${base}/dashboard/balance?from=2026-02-30x`);
    expect(bad?.status()).toBe(400);
    expect(await page.getByRole("alert").textContent()).toMatch(/from/);
    await expectAccessible(page);
    expect(cspErrors).toEqual([]);
  });

  it("draws the overview's chart as an SVG image with a description and a table of its figures, and shows a checkout's customer", async () => {
    const { page, cspErrors } = await open();
    await signIn(page);
    const chart = page.getByRole("img", { name: "Daily settled volume and returns, last 30 days" });
    await chart.waitFor();
    // The image is the SVG itself, named by its own title and described by its desc.
    expect(await page.locator("svg[role=img][aria-labelledby='chart-title chart-desc']").count()).toBe(1);
    expect(await chart.isVisible()).toBe(true);
    const description = await page.locator("#chart-desc").textContent();
    expect(description).toContain("107.50 USD settled, 107.50 USD returned");
    await screenshot(page, "dashboard-overview-chart-1280.png");
    // The text alternative: the day's row in the table under the chart, once disclosed.
    await page.getByText("The chart's figures, day by day").click();
    const day = page.getByRole("region", { name: "Chart figures by day" }).getByRole("row", { name: new RegExp(today()) });
    expect((await day.textContent())?.replace(/\s+/g, " ")).toContain(`${today()}1107.50 USD1107.50 USD`);
    await expectAccessible(page);

    await page.goto(`${base}/dashboard/checkouts/${checkoutId}`);
    await page.getByRole("heading", { name: "Customer" }).waitFor();
    expect(await page.locator("main").textContent()).toContain("First Platypus Bank");
    await expectAccessible(page);
    expect(cspErrors).toEqual([]);
  });

  it("fits the Balance page and a reconciliation into 375 px", async () => {
    const payout = (await api("/api/merchants/payouts")).json<{ data: { id: string }[] }>().data[0]!;
    const { page } = await open(375);
    await signIn(page);
    for (const [path, title] of [
      ["/dashboard/balance", "Balance and payouts"],
      [`/dashboard/payouts/${payout.id}`, `Payout ${payout.id}`],
      ["/dashboard", "Overview"],
    ] as const) {
      await page.goto(`${base}${path}`);
      await heading(page, title);
      await expectFits375(page);
      await expectAccessible(page);
    }
  });
});
