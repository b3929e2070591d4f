import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as ledger from "@payrail/ledger";
import { silentLogger } from "@payrail/runtime";
import { infraVariants } from "../../../test/support/infra.ts";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { BalanceTransactionRepository } from "../../ledger/src/data-access/balance-transaction.repository.ts";
import { balanceTransactionId } from "../../ledger/src/domain/balance-transaction.entity.ts";
import { REFUNDS_COLLECTION } from "../../refunds/src/data-access/refund.repository.ts";
import type { RefundDoc } from "../../refunds/src/domain/refund.entity.ts";
import { dashboardUser, type DashboardClient } from "./support/dashboard-session.ts";

const variants = await infraVariants();
const hex = () => randomBytes(16).toString("hex");
const at = (minute: number) => new Date(Date.UTC(2026, 9, 1, 12, minute)).toISOString();
/** The `href` of the page's export link (entities decoded as a browser would). */
const exportHref = (body: string) => /href="(\/dashboard\/exports\/[^"]+)"/.exec(body.replaceAll("&amp;", "&"))?.[1] ?? expect.fail("no export link");

/**
 * The dashboard's amount filters (docs/decisions/0055-amount-filters.md) over HTTP: the Checkouts,
 * Refunds and Balance pages' Minimum and Maximum amount fields (labelled, in the dates' form), the
 * lists they select, the export buttons carrying them (byte for byte the API's export), and a
 * bad amount as the API's 400 on a page.
 */
describe.each(variants)("the dashboard's amount filters over $name", (variant) => {
  let stack: Stack;
  let service: { stop(): Promise<void> } | undefined;
  let merchant: { id: string; apiKey: string };
  let viewer: DashboardClient;
  const checkouts = new Map<string, string>();
  const refunds = new Map<number, string>();
  const rows = new Map<number, string>();

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    service = await ledger.start({ transport: await variant.transport(), store: await variant.store(), logger: silentLogger() });
    merchant = await stack.merchant("Amount Pages Inc");
    viewer = (await dashboardUser(stack.app, merchant.id, "viewer")).client;
    for (const total of ["9.99", "10.00", "100.00", "100.01"]) {
      const payload = sampleCheckout({ amounts: { total, subtotal: total, tax: 0, shipping: 0, discount_total: null, currency: "USD" } });
      const reply = await stack.app.inject({ method: "POST", url: "/api/merchants/checkout", headers: { "api-key": merchant.apiKey }, payload });
      expect(reply.statusCode, reply.body).toBe(200);
      checkouts.set(total, reply.json().id);
    }
    const store = await variant.store();
    for (const [i, cents] of [999, 1000, 5000].entries()) {
      const id = `rfd_${hex()}`;
      const doc: RefundDoc = {
        _id: id, transactionUuid: `sc-${hex()}`, checkoutRef: `chk_${hex()}`, checkoutNumber: 1, merchantId: merchant.id, userId: `usr_${hex()}`,
        amountCents: cents, currency: "USD", status: "pending", reason: null, attempt: 1, refundTransactionId: null, failureCode: null, failureReason: null,
        version: 1, createdAt: at(i), updatedAt: at(i),
      };
      await store.collection<RefundDoc>(REFUNDS_COLLECTION).insertOne(doc);
      refunds.set(cents, id);
    }
    const books = new BalanceTransactionRepository(store);
    for (const [i, cents] of [-10750, -1000, 1000, 10750].entries()) {
      const type = cents < 0 ? "refund" : "debit";
      const source = type === "refund" ? `rfd_${hex()}` : `sc-${hex()}`;
      const id = balanceTransactionId(type, source);
      await books.insert({ _id: id, merchantId: merchant.id, type, amountCents: cents, currency: "usd", source, eventId: `evt_${hex()}`, createdAt: at(i), availableAt: at(i), payoutId: null, counted: true });
      rows.set(cents, id);
    }
  });
  afterAll(async () => {
    await service?.stop();
    await stack?.close();
    await variant.cleanup();
  });

  const page = async (url: string) => {
    const reply = await viewer.get(url);
    expect(reply.statusCode, reply.body.slice(0, 2000)).toBe(200);
    return reply.body;
  };
  /** The download behind the page's export button is the API's export for the same filters, byte for byte. */
  const expectExport = async (body: string, expectedHref: string, apiUrl: string) => {
    const href = exportHref(body);
    expect(href).toBe(expectedHref);
    const csv = await viewer.get(href);
    expect(csv.statusCode, csv.body).toBe(200);
    const fromApi = await stack.app.inject({ url: apiUrl, headers: { "api-key": merchant.apiKey } });
    expect(csv.body).toBe(fromApi.body);
    return csv.body;
  };
  const shown = (body: string, ids: Map<unknown, string>) => [...ids].filter(([, id]) => body.includes(id)).map(([key]) => key);

  describe.skipIf(!!variant.skipReason)("Checkouts, Refunds and Balance", () => {
    it("gives each list labelled minimum and maximum amount fields in the dates' form, keeping what was typed", async () => {
      for (const path of ["/dashboard/checkouts", "/dashboard/refunds", "/dashboard/balance"]) {
        const body = await page(`${path}?amount_gte=10.00&amount_lte=100.00`);
        const form = /<form class="filters"[\s\S]*?<\/form>/.exec(body)?.[0] ?? expect.fail(`no filter form on ${path}`);
        expect(form).toContain('<label for="from">');
        expect(form).toContain('<label for="amount_gte">Minimum amount</label><input id="amount_gte" name="amount_gte" type="text" inputmode="decimal"');
        expect(form).toContain('<label for="amount_lte">Maximum amount</label><input id="amount_lte" name="amount_lte" type="text" inputmode="decimal"');
        expect(form).toContain('value="10.00"');
        expect(form).toContain('value="100.00"');
        expect(form).not.toMatch(/<script|onclick=/);
      }
    });

    it("lists the checkouts of the totals chosen, both ends included, and exports exactly them", async () => {
      const body = await page("/dashboard/checkouts?amount_gte=10.00&amount_lte=100.00&status=&from=&to=");
      expect(shown(body, checkouts)).toEqual(["10.00", "100.00"]);
      const csv = await expectExport(body, "/dashboard/exports/checkouts.csv?amount_gte=10.00&amount_lte=100.00", "/api/merchants/exports/checkouts.csv?amount_gte=10.00&amount_lte=100.00");
      expect(csv.trim().split("\r\n")).toHaveLength(3);
      // What a person typed is trimmed; empty fields are no bound.
      expect(shown(await page("/dashboard/checkouts?amount_gte=+100.01+&amount_lte="), checkouts)).toEqual(["100.01"]);
      expect(shown(await page("/dashboard/checkouts?amount_gte=&amount_lte="), checkouts)).toEqual(["9.99", "10.00", "100.00", "100.01"]);
    });

    it("lists the refunds of the amounts chosen and exports exactly them", async () => {
      const body = await page("/dashboard/refunds?amount_gte=10.00");
      expect(shown(body, refunds)).toEqual([1000, 5000]);
      const csv = await expectExport(body, "/dashboard/exports/refunds.csv?amount_gte=10.00", "/api/merchants/exports/refunds.csv?amount_gte=10.00");
      expect(csv.trim().split("\r\n")).toHaveLength(3);
    });

    it("filters balance transactions by the signed amount, and the export button carries it with the type", async () => {
      const body = await page("/dashboard/balance?amount_lte=-10.00&type=refund");
      expect(shown(body, rows)).toEqual([-10750, -1000]);
      expect(body).toContain("for money out");
      await expectExport(body, "/dashboard/exports/balance_transactions.csv?type=refund&amount_lte=-10.00", "/api/merchants/exports/balance_transactions.csv?type=refund&amount_lte=-10.00");
      expect(shown(await page("/dashboard/balance?amount_gte=-10.00&amount_lte=10.00"), rows)).toEqual([-1000, 1000]);
    });

    it("answers a bad amount with the API's 400 as a page naming the field, never a 500", async () => {
      for (const [url, param] of [
        ["/dashboard/checkouts?amount_gte=ten", "amount_gte"],
        ["/dashboard/checkouts?amount_lte=-5.00", "amount_lte"],
        ["/dashboard/refunds?amount_lte=1.234", "amount_lte"],
        ["/dashboard/balance?amount_gte=--1", "amount_gte"],
        ["/dashboard/balance?amount_gte=10.00&amount_lte=9.99", "amount_gte"],
        ["/dashboard/exports/checkouts.csv?amount_gte=-1.00", "amount_gte"],
        ["/dashboard/exports/refunds.csv?amount_gte=5&amount_lte=4", "amount_gte"],
      ] as const) {
        const reply = await viewer.get(url);
        expect(reply.statusCode, url).toBe(400);
        expect(reply.headers["content-type"], url).toContain("text/html");
        expect(reply.body, url).toContain(param);
      }
    });
  });
});
