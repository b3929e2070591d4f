import { beforeAll, describe, expect, it } from "vitest";
import { maskPhone } from "@payrail/contracts";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import type { Stack } from "../../../test/support/stack.ts";
import { withWebhooksStack } from "./support/webhooks-stack.ts";
import { payment, refundClient, requested } from "./support/refund-flow.ts";
import { dashboardUser, type DashboardClient } from "./support/dashboard-session.ts";

const variants = await infraVariants();
const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const dayOffset = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
/** The `href` of the page's export link for `name` (entities decoded as a browser would). */
const exportHref = (body: string, name: string) => /href="(\/dashboard\/exports\/[^"]+)"/.exec(body.replaceAll("&amp;", "&"))?.[1] ?? expect.fail(`no ${name} link`);

/**
 * The dashboard's books (docs/decisions/0053-dashboard-books.md): the Balance and payouts page,
 * a payout's reconciliation, the CSV buttons with the lists' filters (byte for byte the API's
 * export), the date filters of checkouts and refunds, the overview's chart and a checkout's
 * customer. The ledger (its schedule off: the test runs the payout), webhooks (a checkout's
 * events) and notices (its consumer's) run beside the stack, fed by real payments through the gateway.
 */
describe.each(variants)("the dashboard's books over $name", (variant) => {
  const world = withWebhooksStack(variant, { PAYOUT_SCHEDULE: "0" }, ["ledger", "notices"]);
  let stack: Stack;
  let merchant: { id: string; apiKey: string };
  let viewer: DashboardClient;
  let paid: Awaited<ReturnType<typeof payment>>[];
  let refundId: string;

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = world.stack;
    merchant = await stack.merchant("Ledger Pages Inc");
    viewer = (await dashboardUser(stack.app, merchant.id, "viewer")).client;
    // Three settled debits; the second comes back (a return); the third gets a paid refund.
    paid = [await payment(stack, merchant.apiKey), await payment(stack, merchant.apiKey), await payment(stack, merchant.apiKey)];
    const refunds = refundClient(stack);
    expect((await refunds.simulate(merchant.apiKey, paid[1]!.uuid, "failed")).statusCode).toBe(200);
    const refund = await requested(stack, paid[2]!);
    refundId = refund.id;
    expect((await refunds.decide({ "api-key": merchant.apiKey }, refund.id, "Approved")).statusCode).toBe(200);
    const transferId = (await refunds.initiate({ "api-key": merchant.apiKey }, refund.id)).json().refund.refund_transaction_id as string;
    expect((await refunds.simulate(merchant.apiKey, transferId, "completed")).statusCode).toBe(200);
    await eventually(async () => expect((await api("/api/merchants/balance_transactions?limit=100")).json().data).toHaveLength(5));
    // A row is listed from its insert and counted in the balance a write later.
    await eventually(async () => expect((await api("/api/merchants/balance")).json().available).toBe("107.50"));
  });

  const api = (url: string, apiKey = merchant.apiKey) => stack.app.inject({ url, headers: { "api-key": apiKey } });
  const page = async (url: string) => {
    const reply = await viewer.get(url);
    expect(reply.statusCode, reply.body.slice(0, 2000)).toBe(200);
    return reply.body;
  };

  describe.skipIf(!!variant.skipReason)("balance, payouts and exports", () => {
    it("shows the balance and the balance transactions, filtered by type and dates, with an export of exactly what the filters select", async () => {
      const balance = (await api("/api/merchants/balance")).json();
      const body = await page("/dashboard/balance");
      expect(body).toContain(`${balance.available} USD`);
      expect(body).toContain('aria-current="page">Balance</a>');
      for (const row of (await api("/api/merchants/balance_transactions?limit=100")).json().data) expect(body).toContain(row.id);

      const debits = await page(`/dashboard/balance?type=debit&from=${today()}&to=${today()}`);
      const returnRow = (await api("/api/merchants/balance_transactions?type=return")).json().data[0];
      expect(debits).not.toContain(returnRow.id);
      expect(debits.match(/<td data-label="Type">debit</g)).toHaveLength(3);
      // The button carries the page's filters; the download is the API's export of the same window.
      const href = exportHref(debits, "balance_transactions.csv");
      expect(href).toBe(`/dashboard/exports/balance_transactions.csv?type=debit&from=${today()}&to=${today()}`);
      const csv = await viewer.get(href);
      expect(csv.statusCode).toBe(200);
      expect(csv.headers["content-type"]).toContain("text/csv");
      const fromApi = await api(`/api/merchants/exports/balance_transactions.csv?type=debit&from=${today()}&to=${dayOffset(1)}`);
      expect(csv.body).toBe(fromApi.body);
      expect(csv.body.trim().split("\r\n")).toHaveLength(4);
      // Yesterday's window is empty, to the page and to the export.
      expect(await page(`/dashboard/balance?to=${dayOffset(-1)}`)).toContain("No balance transactions.");
      expect((await viewer.get(`/dashboard/exports/balance_transactions.csv?to=${dayOffset(-1)}`)).body.trim().split("\r\n")).toHaveLength(1);
    });

    it("answers a malformed filter with a 400 page that names the field, on the pages and their exports, and the API the same", async () => {
      for (const url of ["/dashboard/balance?from=2026-13-45", "/dashboard/balance?to=yesterday", "/dashboard/checkouts?from=11/01/2026", "/dashboard/refunds?to=2026-11-31T25:00Z", "/dashboard/balance?type=fee", "/dashboard/exports/refunds.csv?from=nope"]) {
        const reply = await viewer.get(url);
        expect(reply.statusCode, url).toBe(400);
        expect(reply.headers["content-type"], url).toContain("text/html");
        expect(reply.body, url).toMatch(/role="alert">[^<]*(from|to|type)/);
      }
      const bad = await api("/api/merchants/exports/balance_transactions.csv?type=fee");
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toMatchObject({ code: "parameter_invalid", param: "type" });
      expect((await viewer.get("/dashboard/exports/ledger.csv")).statusCode).toBe(404);
    });

    it("lists a payout that opens its reconciliation, whose rows add up to its amount, and exports just that payout", async () => {
      const run = await stack.app.inject({ method: "POST", url: "/api/sandbox/payouts/run", headers: { "api-key": merchant.apiKey }, payload: {} });
      expect(run.statusCode, run.body).toBe(200);
      const payout = run.json().payout;
      const balance = await page("/dashboard/balance");
      expect(balance).toContain(`href="/dashboard/payouts/${payout.id}"`);
      expect(await page("/dashboard/payouts")).toContain(payout.id);

      const report = await page(`/dashboard/payouts/${payout.id}`);
      const detail = (await api(`/api/merchants/payouts/${payout.id}`)).json();
      expect(report).toContain(`${payout.amount} USD`);
      for (const row of detail.balance_transactions.data) expect(report).toContain(row.id);
      // The rows it pays out add up to its amount; its own payout row takes that amount.
      const cents = (d: string) => Math.round(Number(d) * 100);
      const paidOut = detail.balance_transactions.data.filter((r: { type: string }) => r.type !== "payout");
      expect(paidOut.reduce((sum: number, r: { amount: string }) => sum + cents(r.amount), 0)).toBe(cents(payout.amount));
      // The page writes that sum out, by type.
      expect(report).toContain(`${paidOut.length} movements:`);
      expect(report).toMatch(/debits 322\.50[^<]*= 107\.50 USD/);
      const href = exportHref(report, "balance_transactions.csv");
      expect(href).toBe(`/dashboard/exports/balance_transactions.csv?payout_id=${payout.id}`);
      const csv = await viewer.get(href);
      expect(csv.body).toBe((await api(`/api/merchants/exports/balance_transactions.csv?payout_id=${payout.id}`)).body);
      expect(csv.body.trim().split("\r\n")).toHaveLength(1 + detail.balance_transactions.data.length);

      // Another merchant's user gets no such payout; a malformed id is a 400 page.
      const other = await stack.merchant("Other Books Co");
      const stranger = (await dashboardUser(stack.app, other.id, "owner")).client;
      expect((await stranger.get(`/dashboard/payouts/${payout.id}`)).statusCode).toBe(404);
      expect((await stranger.get(`/dashboard/exports/balance_transactions.csv?payout_id=${payout.id}`)).body.trim().split("\r\n")).toHaveLength(1);
      expect((await viewer.get("/dashboard/payouts/po_nope")).statusCode).toBe(400);
    });
  });

  describe.skipIf(!!variant.skipReason)("date filters, the chart and the customer", () => {
    it("filters checkouts and refunds by dates, both days included, and their exports carry the dates", async () => {
      const checkouts = await page(`/dashboard/checkouts?from=${today()}&to=${today()}`);
      for (const p of paid) expect(checkouts).toContain(p.checkoutId);
      expect(await page(`/dashboard/checkouts?from=${dayOffset(1)}`)).toContain("No checkouts.");
      const href = exportHref(checkouts, "checkouts.csv");
      expect(href).toBe(`/dashboard/exports/checkouts.csv?from=${today()}&to=${today()}`);
      expect((await viewer.get(href)).body).toBe((await api(`/api/merchants/exports/checkouts.csv?from=${today()}&to=${dayOffset(1)}`)).body);

      const refunds = await page(`/dashboard/refunds?status=completed&to=${today()}`);
      expect(refunds).toContain(refundId);
      expect(await page(`/dashboard/refunds?to=${dayOffset(-1)}`)).toContain("No refunds.");
      const refundsHref = exportHref(refunds, "refunds.csv");
      expect(refundsHref).toBe(`/dashboard/exports/refunds.csv?to=${today()}`);
      const csv = (await viewer.get(refundsHref)).body;
      expect(csv).toBe((await api(`/api/merchants/exports/refunds.csv?to=${dayOffset(1)}`)).body);
      expect(csv).toContain(refundId);
    });

    it("draws the last 30 days on the overview as an SVG image with its description, and the figures as a table", async () => {
      const body = await page("/dashboard");
      const svg = /<svg role="img" aria-labelledby="chart-title chart-desc"[\s\S]*?<\/svg>/.exec(body)?.[0] ?? expect.fail("no chart");
      expect(svg).toContain('<title id="chart-title">Daily settled volume and returns, last 30 days</title>');
      // Two settled debits stay settled (215.00); the returned one counts as returned, on its debit's day.
      expect(svg).toMatch(/<desc id="chart-desc">30 days from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}: 215\.00 USD settled, 107\.50 USD returned\./);
      expect(svg.match(/<rect class="bar-settled"/g)).toHaveLength(30);
      const table = /aria-label="Chart figures by day"[\s\S]*?<\/table>/.exec(body)?.[0] ?? expect.fail("no table");
      expect(table).toMatch(new RegExp(`<td data-label="Day">${today()}</td><td data-label="Settled" class="num">2</td><td data-label="Settled volume" class="num">215.00 USD</td><td data-label="Returned" class="num">1</td>`));
    });

    it("shows a checkout's customer: the phones masked, the bank and the account's last digits, and the mandate", async () => {
      const checkout = (await api(`/api/merchants/checkout/${paid[0]!.checkoutId}`)).json();
      const mandate = (await api(`/api/merchants/mandates/${checkout.mandate_id}`)).json();
      // The consumer's verified phone, as the SMS notices were sent to it (masked by the notices service).
      const sms = await eventually(async () => {
        const found = (await api(`/api/merchants/notices?checkout_id=${checkout.id}`)).json().data.find((n: { channel: string }) => n.channel === "sms");
        expect(found).toBeDefined();
        return found as { to: string };
      });
      expect(sms.to).toContain("•");
      const body = await page(`/dashboard/checkouts/${paid[0]!.checkoutId}`);
      const card = /<h2 id="customer">Customer<\/h2>[\s\S]*?<\/dl>/.exec(body)?.[0] ?? expect.fail("no customer card");
      expect(card).toContain(`<dt>Verified phone</dt><dd class="mono">${sms.to}</dd>`);
      expect(card).toContain(maskPhone(checkout.billing.phone_number));
      expect(body).not.toContain(checkout.billing.phone_number);
      expect(card).toContain(mandate.bank_account.institution);
      expect(card).toContain(`••••${mandate.bank_account.mask}`);
      expect(card).toContain(mandate.id);
      expect(card).toContain("bank data provider");
      expect(body).toContain("Notices to the consumer");
    });
  });
});
