import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import axe from "axe-core";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";

/** Debian's chromium (`.ci/run` installs it with apt-get): Playwright's own download cannot run here. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Why the browser suite cannot run here (no chromium), or undefined. Under REQUIRE_INFRA=1 it must. */
export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `no chromium at ${CHROMIUM} (apt-get install chromium)`;
  if (process.env.REQUIRE_INFRA === "1") throw new Error(`REQUIRE_INFRA=1: ${reason}`);
  return reason;
}

/** One headless chromium for a whole file, with nothing of its own talking to the network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic"],
  });
}

/**
 * A page in a fresh context of `width` px (kept in `contexts` for the file's afterAll to close),
 * and the Content-Security-Policy complaints its console prints: a page the policy breaks says so.
 */
export async function openPage(browser: Browser, contexts: BrowserContext[], width: number, height = 900): Promise<{ page: Page; cspErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height } });
  contexts.push(context);
  const page = await context.newPage();
  const cspErrors: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  return { page, cspErrors };
}

/** A stand-in for the merchant's shop: answers every path with a small page, remembers what was asked. */
export async function startShop(): Promise<{ url: string; paths: string[]; close(): Promise<void> }> {
  const paths: string[] = [];
  const server: Server = createServer((request, response) => {
    paths.push(request.url ?? "");
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>Shop</title><h1>Back at the shop</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, paths, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Waits for the step whose heading is `title` (the page's one h1). When it does not come, the
 * failure says which step the page shows instead and its text, not only that time ran out.
 */
export async function waitForStep(page: Page, title: string, timeout = 30_000): Promise<void> {
  try {
    await page.getByRole("heading", { level: 1, name: title, exact: true }).waitFor({ timeout });
  } catch (err) {
    const shown = await page.textContent("main", { timeout: 1000 }).catch(() => "(no main element)");
    throw new Error(`waited ${timeout} ms for the step "${title}"; the page shows: ${shown?.replace(/\s+/g, " ").trim()}`, { cause: err });
  }
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
}

/**
 * axe-core's WCAG 2.1 A/AA and best-practice rules on the page as it is now, every violation
 * whatever its impact; `region` (all content inside landmarks) and `landmark-unique` (no two
 * landmarks of one role share a name) named among them so that a change of axe's tags cannot
 * drop them. axe is evaluated through the DevTools protocol, which the page's CSP does not
 * govern, so the page keeps its real policy while it is checked.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axe.source);
  // A string: this runs in the page, and the test code is compiled without the DOM's types.
  return (await page.evaluate(`axe
    .run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
      rules: { region: { enabled: true }, "landmark-unique": { enabled: true } },
    })
    .then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, nodes: v.nodes.length })))`)) as AxeViolation[];
}

/** The serious and critical violations of axeViolations. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  return (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
}

/**
 * Plaid Link's browser API as the pages use it (`create({token, onSuccess, onExit}).open()`),
 * stood in for at Plaid's own URL, so the page's CSP and nonce are what let it run. Its open()
 * asks `https://sandbox.plaid.com/test/public_token` (answered by `publicToken`, the sandbox
 * bank's picker) and reports the accounts as Link does, or closes through onExit when that
 * fails. The nonce the script was given is left in `window.linkScriptNonce`.
 */
export async function routeFakePlaidLink(page: Page, publicToken: (linkToken: string) => Promise<{ statusCode: number; body: string }>): Promise<void> {
  await page.route("https://cdn.plaid.com/link/v2/stable/link-initialize.js", (route) => route.fulfill({ contentType: "text/javascript", body: FAKE_PLAID_LINK }));
  await page.route("https://sandbox.plaid.com/test/public_token", async (route) => {
    const picked = await sandboxBankAnswer(() => publicToken(route.request().postData() ?? ""));
    await route.fulfill({ status: picked.statusCode, contentType: "application/json", headers: { "access-control-allow-origin": "*" }, body: picked.body });
  });
}

/**
 * The sandbox bank's answer, standing in for Plaid's servers: those are not under test, and on a
 * loaded machine the in-process call behind them can meet a 503 `service_timeout`, which Plaid
 * itself would have retried. Three tries, then its last answer as it is.
 */
async function sandboxBankAnswer(ask: () => Promise<{ statusCode: number; body: string }>): Promise<{ statusCode: number; body: string }> {
  let answer = await ask();
  for (let tries = 1; answer.statusCode === 503 && tries < 3; tries++) answer = await ask();
  return answer;
}

const FAKE_PLAID_LINK = `
window.linkScriptNonce = document.currentScript && document.currentScript.nonce;
window.Plaid = {
  create(config) {
    return {
      open() {
        fetch("https://sandbox.plaid.com/test/public_token", { method: "POST", body: config.token })
          .then((r) => (r.ok ? r.json() : Promise.reject(new Error("sandbox bank answered " + r.status))))
          .then((out) => config.onSuccess(out.public_token, {
            accounts: out.accounts.map((a) => ({ id: a.account_id, name: a.name, mask: a.mask, subtype: a.subtype })),
          }))
          // As Link does when it fails: it closes and reports the error, leaving the page to say so.
          .catch((error) => config.onExit({ error_message: String(error) }));
      },
      destroy() {},
    };
  },
};`;

/**
 * 375 px: the page does not scroll sideways, and every button and select of a form lies inside
 * the viewport's width (a table's actions are not hidden off to the right). Answers the
 * buttons' labels, so a caller can say which it expected there.
 */
export async function expectFits375(page: Page): Promise<string[]> {
  // What sticks out, innermost first, so a failure says which element to mend.
  const wide = await page.evaluate(`[...document.querySelectorAll("body *")].filter((el) => el.getBoundingClientRect().right > 375)
    .map((el) => el.tagName.toLowerCase() + (el.className ? "." + String(el.className).split(" ").join(".") : "") + " " + Math.round(el.getBoundingClientRect().right)).reverse().slice(0, 12).join(", ")`);
  expect(await page.evaluate("document.documentElement.scrollWidth"), `${page.url()}: ${String(wide)}`).toBeLessThanOrEqual(375);
  const controls = (await page.evaluate(`[...document.querySelectorAll("form button, form select")].map((el) => {
    const box = el.getBoundingClientRect();
    const label = el.tagName === "SELECT" ? "select#" + el.id : (el.textContent || "").trim();
    return { label, left: box.left, right: box.right, width: box.width };
  })`)) as { label: string; left: number; right: number; width: number }[];
  const outside = controls.filter((c) => c.width === 0 || c.left < 0 || c.right > 375);
  expect(outside, page.url()).toEqual([]);
  return controls.map((c) => c.label);
}
