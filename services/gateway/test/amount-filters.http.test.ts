import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
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

const variants = await infraVariants();
const hex = (n = 16) => randomBytes(n).toString("hex");
const at = (minute: number) => new Date(Date.UTC(2026, 9, 1, 12, minute)).toISOString();

/**
 * The lists' amount filters (docs/decisions/0055-amount-filters.md) through the gateway: checkouts,
 * refunds and balance transactions, `amount_gte` and `amount_lte` inclusive and exact to the cent,
 * with the dates and across cursor pages; the exports holding exactly the filtered list; 400
 * `amount_invalid` for a bad bound or a range upside down. The stores enforce the index check.
 */
describe.each(variants)("amount filters over $name", (variant) => {
  let stack: Stack;
  let service: { stop(): Promise<void> } | undefined;
  let merchant: { id: string; apiKey: string };

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    service = await ledger.start({ transport: await variant.transport(), store: await variant.store(), logger: silentLogger() });
    merchant = await stack.merchant("Amounts Inc");
  });
  afterAll(async () => {
    await service?.stop();
    await stack?.close();
    await variant.cleanup();
  });

  const get = (url: string) => stack.app.inject({ url, headers: { "api-key": merchant.apiKey } });
  const json = async (url: string) => {
    const reply = await get(url);
    expect(reply.statusCode, `${url}: ${reply.body}`).toBe(200);
    return reply.json() as { data: { id: string }[]; has_more: boolean };
  };
  /** Every record of `path`'s list for `query`, `limit` a page, following `starting_after`. */
  const paged = async (path: string, query: string, limit: number) => {
    const out: { id: string }[] = [];
    for (;;) {
      const after = out.length ? `&starting_after=${out[out.length - 1]!.id}` : "";
      const page = await json(`${path}?limit=${limit}${query}${after}`);
      out.push(...page.data);
      if (!page.has_more) return out;
    }
  };
  /** The list's ids for `query`: one page of 100 and pages of 1 must agree. */
  const ids = async (path: string, query: string) => {
    const whole = (await paged(path, query, 100)).map((r) => r.id);
    expect((await paged(path, query, 1)).map((r) => r.id), query).toEqual(whole);
    return whole;
  };
  /** The export for `query` is the unfiltered export's rows of exactly the listed ids, in the list's order. */
  const expectExportOf = async (name: string, query: string, listed: string[]) => {
    const all = (await get(`/api/merchants/exports/${name}`)).body.split("\r\n");
    const byId = new Map(all.slice(1).map((line) => [line.split(",")[0], line]));
    const filtered = await get(`/api/merchants/exports/${name}?${query.replace(/^&/, "")}`);
    expect(filtered.statusCode, filtered.body).toBe(200);
    expect(filtered.body).toBe([all[0], ...listed.map((id) => byId.get(id))].map((l) => `${l}\r\n`).join(""));
  };
  const createdAt = async (checkoutId: string) => ((await get(`/api/merchants/checkout/${checkoutId}`)).json() as { created_at: string }).created_at;
  const expectAmountInvalid = async (url: string, param: string) => {
    const reply = await get(url);
    expect(reply.statusCode, url).toBe(400);
    expect(reply.json().error, url).toMatchObject({ code: "amount_invalid", param });
  };

  describe.skipIf(!!variant.skipReason)("the three lists", () => {
    /** Checkout id by total, created in this order. */
    const checkouts = new Map<string, string>();
    const TOTALS = ["9.99", "10.00", "10.01", "25.50", "100.00", "100.01"];

    it("filters checkouts by total, both bounds inclusive and exact to the cent, with the dates and the status", async () => {
      for (const total of TOTALS) {
        const body = sampleCheckout({ amounts: { total, subtotal: total, tax: 0, shipping: 0, discount_total: null, currency: "USD" } });
        const reply = await stack.app.inject({ method: "POST", url: "/api/merchants/checkout", headers: { "api-key": merchant.apiKey }, payload: body });
        expect(reply.statusCode, reply.body).toBe(200);
        checkouts.set(total, reply.json().id);
        // Each in a millisecond of its own: the window below ends (exclusive) at 100.01's created_at,
        // and a create takes well under a millisecond here, so 100.00 could share it and fall out.
        await sleep(2);
      }
      const of = (...totals: string[]) => totals.map((t) => checkouts.get(t)!);
      const path = "/api/merchants/checkout";
      expect(await ids(path, "&amount_gte=10.00&amount_lte=100.00")).toEqual(of("100.00", "25.50", "10.01", "10.00"));
      expect(await ids(path, "&amount_gte=10.01&amount_lte=99.99")).toEqual(of("25.50", "10.01"));
      expect(await ids(path, "&amount_gte=100.01")).toEqual(of("100.01"));
      expect(await ids(path, "&amount_lte=9.99")).toEqual(of("9.99"));
      expect(await ids(path, "&amount_gte=10&amount_lte=10")).toEqual(of("10.00"));
      expect(await ids(path, "&amount_gte=25.5&amount_lte=25.5")).toEqual(of("25.50"));
      // With the window the list is ordered by creation time, then number (another index): the
      // checkouts created from 10.01's time and before 100.01's, of those totals.
      const from = encodeURIComponent(await createdAt(checkouts.get("10.01")!));
      const to = encodeURIComponent(await createdAt(checkouts.get("100.01")!));
      const windowed = await ids(path, `&from=${from}&to=${to}`);
      expect(windowed).toEqual(expect.arrayContaining(of("100.00", "25.50", "10.01")));
      expect(await ids(path, `&amount_gte=10.00&amount_lte=100.00&from=${from}&to=${to}`)).toEqual(windowed.filter((id) => of("100.00", "25.50", "10.01").includes(id)));
      expect(await ids(path, `&amount_gte=10.01&amount_lte=25.50&from=${from}&to=${to}`)).toEqual(windowed.filter((id) => of("25.50", "10.01").includes(id)));
      expect(await ids(path, "&amount_gte=10.00&status=open")).toEqual(of("100.01", "100.00", "25.50", "10.01", "10.00"));
      expect(await ids(path, "&amount_lte=10.00&is_subscription=false")).toEqual(of("10.00", "9.99"));
      expect(await ids(path, "&amount_gte=200.00")).toEqual([]);
      const one = sampleCheckout().merchant_checkout_id;
      await stack.app.inject({ method: "POST", url: path, headers: { "api-key": merchant.apiKey }, payload: sampleCheckout({ merchant_checkout_id: one }) });
      expect((await json(`${path}?merchant_checkout_id=${one}&amount_lte=100.00`)).data).toHaveLength(0);
      expect((await json(`${path}?merchant_checkout_id=${one}&amount_gte=107.50&amount_lte=107.50`)).data).toHaveLength(1);
      await expectExportOf("checkouts.csv", "&amount_gte=10.00&amount_lte=100.00", of("100.00", "25.50", "10.01", "10.00"));
      await expectExportOf("checkouts.csv", `&amount_gte=10.01&from=${from}&to=${to}`, windowed.filter((id) => of("100.00", "25.50", "10.01").includes(id)));
    });

    it("filters refunds by amount the same way", async () => {
      const store = await variant.store();
      const made: string[] = [];
      for (const [i, cents] of [999, 1000, 1001, 2550, 10000, 10001].entries()) {
        const id = `rfd_${hex()}`;
        const doc: RefundDoc = {
          _id: id,
          transactionUuid: `sc-${hex()}`,
          checkoutRef: `chk_${hex()}`,
          checkoutNumber: 1,
          merchantId: merchant.id,
          userId: `usr_${hex()}`,
          amountCents: cents,
          currency: "USD",
          status: "pending",
          reason: null,
          attempt: 1,
          refundTransactionId: null,
          failureCode: null,
          failureReason: null,
          version: 1,
          createdAt: at(i),
          updatedAt: at(i),
        };
        // Records as the refunds service writes them, straight into its collection: this test is about the list.
        await store.collection<RefundDoc>(REFUNDS_COLLECTION).insertOne(doc);
        made.push(id);
      }
      const [r999, r1000, r1001, r2550, r10000, r10001] = made;
      const path = "/api/merchants/refunds";
      expect(await ids(path, "&amount_gte=10.00&amount_lte=100.00")).toEqual([r10000, r2550, r1001, r1000]);
      expect(await ids(path, "&amount_gte=10.01")).toEqual([r10001, r10000, r2550, r1001]);
      expect(await ids(path, "&amount_lte=9.99")).toEqual([r999]);
      expect(await ids(path, `&amount_lte=100.00&from=${at(1)}&to=${at(4)}`)).toEqual([r2550, r1001, r1000]);
      expect(await ids(path, "&amount_gte=10.00&status=pending&amount_lte=10.00")).toEqual([r1000]);
      await expectExportOf("refunds.csv", "&amount_gte=10.00&amount_lte=100.00", [r10000!, r2550!, r1001!, r1000!]);
    });

    it("filters balance transactions by the signed amount, negative bounds included", async () => {
      const rows = new BalanceTransactionRepository(await variant.store());
      const made = new Map<number, string>();
      const rowsOf: [type: "debit" | "refund" | "return" | "payout", cents: number][] = [
        ["return", -10750],
        ["refund", -1000],
        ["refund", -999],
        ["debit", 1],
        ["debit", 1000],
        ["debit", 10750],
      ];
      for (const [i, [type, cents]] of rowsOf.entries()) {
        const source = type === "refund" ? `rfd_${hex()}` : `sc-${hex()}`;
        const id = balanceTransactionId(type, source);
        await rows.insert({ _id: id, merchantId: merchant.id, type, amountCents: cents, currency: "usd", source, eventId: `evt_${hex()}`, createdAt: at(i), availableAt: at(i), payoutId: null, counted: true });
        made.set(cents, id);
      }
      const of = (...cents: number[]) => cents.map((c) => made.get(c)!);
      const path = "/api/merchants/balance_transactions";
      expect(await ids(path, "&amount_lte=-10.00")).toEqual(of(-1000, -10750));
      expect(await ids(path, "&amount_gte=-10.00&amount_lte=10.00")).toEqual(of(1000, 1, -999, -1000));
      expect(await ids(path, "&amount_gte=-9.99&amount_lte=0.01")).toEqual(of(1, -999));
      expect(await ids(path, "&amount_gte=0.01")).toEqual(of(10750, 1000, 1));
      expect(await ids(path, "&amount_lte=-9.99&type=refund")).toEqual(of(-999, -1000));
      expect(await ids(path, `&amount_gte=-107.50&amount_lte=10.00&from=${at(1)}&to=${at(5)}`)).toEqual(of(1000, 1, -999, -1000));
      expect(await ids(path, "&amount_lte=-10.00&payout_id=po_none")).toEqual([]);
      await expectExportOf("balance_transactions.csv", "&amount_gte=-10.00&amount_lte=10.00", of(1000, 1, -999, -1000));
      await expectExportOf("balance_transactions.csv", "&amount_lte=-10.00&type=return", of(-10750));
    });

    it("answers 400 amount_invalid naming the bound for a malformed one or a range upside down, on the lists and their exports", async () => {
      const lists = ["/api/merchants/checkout", "/api/merchants/refunds", "/api/merchants/balance_transactions"];
      const exports = ["checkouts.csv", "refunds.csv", "balance_transactions.csv"].map((n) => `/api/merchants/exports/${n}`);
      for (const path of [...lists, ...exports]) {
        for (const bad of ["abc", "10.001", "05.00", "%205", "1e3", "10,00", "+5", "100000000.00", "", "-0", "-0.00", "--5", "-05"]) {
          await expectAmountInvalid(`${path}?amount_gte=${bad}`, "amount_gte");
          await expectAmountInvalid(`${path}?amount_lte=${bad}`, "amount_lte");
        }
        await expectAmountInvalid(`${path}?amount_gte=10.01&amount_lte=10.00`, "amount_gte");
      }
      // Only balance transactions are signed.
      for (const path of [lists[0]!, lists[1]!, exports[0]!, exports[1]!]) await expectAmountInvalid(`${path}?amount_gte=-5.00`, "amount_gte");
      await expectAmountInvalid("/api/merchants/balance_transactions?amount_gte=-5.00&amount_lte=-5.01", "amount_gte");
      expect((await get("/api/merchants/balance_transactions?amount_gte=-5.00&amount_lte=-5.00")).statusCode).toBe(200);
    });
  });
});
