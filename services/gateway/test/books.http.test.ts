import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnyDomainEvent } from "@payrail/contracts";
import * as ledger from "@payrail/ledger";
import type { Transport } from "@payrail/messaging";
import { silentLogger } from "@payrail/runtime";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { BalanceTransactionRepository } from "../../ledger/src/data-access/balance-transaction.repository.ts";
import { balanceTransactionId } from "../../ledger/src/domain/balance-transaction.entity.ts";
import { BALANCE_TRANSACTION_COLUMNS, CHECKOUT_COLUMNS, REFUND_COLUMNS, TRANSACTION_COLUMNS } from "@payrail/web";
import { payment, refundClient, requested, type Payment } from "./support/refund-flow.ts";

const variants = await infraVariants();

type Btx = Record<(typeof BALANCE_TRANSACTION_COLUMNS)[number], string | null>;

/** What the CSV export must be, byte for byte, for these JSON rows (none of whose fields needs quoting: checked). */
function expectedCsv(rows: Btx[]): string {
  const lines = [BALANCE_TRANSACTION_COLUMNS.join(",")];
  for (const row of rows) {
    const fields = BALANCE_TRANSACTION_COLUMNS.map((c) => row[c] ?? "");
    for (const f of fields) expect(f).not.toMatch(/[",\r\n]/);
    lines.push(fields.join(","));
  }
  return lines.map((l) => `${l}\r\n`).join("");
}

/**
 * The merchant's books end to end (docs/decisions/0042-merchant-books.md): the ledger service
 * beside the stack, fed by the events of real payments, returns and refunds through the gateway;
 * the balance, the list with its filters, and the CSV export checked against the list.
 */
describe.each(variants)("the merchant's books over $name", (variant) => {
  let stack: Stack;
  let merchant: { id: string; apiKey: string };
  let service: { stop(): Promise<void> } | undefined;
  let ledgerTransport: Transport;
  const completedEvents: AnyDomainEvent[] = [];

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    ledgerTransport = await variant.transport();
    service = await ledger.start({ transport: ledgerTransport, store: await variant.store(), logger: silentLogger(), subscribe: { retry: { firstDelayMs: 100, maxDelayMs: 500 } } });
    const spy = await variant.transport();
    await spy.subscribe("books-spy", ["transaction.completed"], async (event) => void completedEvents.push(event));
    merchant = await stack.merchant("Books Inc");
  });
  afterAll(async () => {
    await service?.stop();
    await stack?.close();
    await variant.cleanup();
  });

  const get = (url: string, apiKey = merchant.apiKey) => stack.app.inject({ url, headers: { "api-key": apiKey } });
  const json = async (url: string, apiKey = merchant.apiKey) => {
    const reply = await get(url, apiKey);
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json();
  };
  /** Every row of the list for `query`, page by page (`limit` rows a page). */
  const allRows = async (query: string, apiKey = merchant.apiKey, limit = 2): Promise<Btx[]> => {
    const rows: Btx[] = [];
    for (;;) {
      const after = rows.length ? `&starting_after=${rows[rows.length - 1]!.id}` : "";
      const page = await json(`/api/merchants/balance_transactions?limit=${limit}${query}${after}`, apiKey);
      rows.push(...page.data);
      if (!page.has_more) return rows;
    }
  };

  describe.skipIf(!!variant.skipReason)("balance and balance transactions", () => {
    let rows: Btx[];
    let refundAmount: string;
    let payments: Payment[];

    it("books settled debits, a return and a paid refund, and the balance adds them up", async () => {
      const kept = await payment(stack, merchant.apiKey, "completed");
      const comesBack = await payment(stack, merchant.apiKey, "completed");
      const refunded = await payment(stack, merchant.apiKey, "completed");
      payments = [kept, comesBack, refunded];
      const refunds = refundClient(stack);
      expect((await refunds.simulate(merchant.apiKey, comesBack.uuid, "failed")).statusCode).toBe(200);
      const refund = await requested(stack, refunded);
      expect((await refunds.decide({ "api-key": merchant.apiKey }, refund.id, "Approved")).statusCode).toBe(200);
      const transferId = (await refunds.initiate({ "api-key": merchant.apiKey }, refund.id)).json().refund.refund_transaction_id as string;
      expect((await refunds.simulate(merchant.apiKey, transferId, "completed")).statusCode).toBe(200);
      rows = await eventually(async () => {
        const found = await allRows("");
        expect(found).toHaveLength(5);
        return found;
      });
      const of = (type: string, source: string) => rows.filter((r) => r.type === type && r.source === source);
      const debitAmount = of("debit", kept.uuid)[0]!.amount!;
      expect(debitAmount).toBe("107.50");
      expect(of("debit", comesBack.uuid)[0]!.amount).toBe("107.50");
      expect(of("return", comesBack.uuid)[0]!.amount).toBe("-107.50");
      expect(of("debit", refunded.uuid)[0]!.amount).toBe("107.50");
      refundAmount = of("refund", refund.id)[0]!.amount!;
      expect(refundAmount).toMatch(/^-\d+\.\d{2}$/);
      // Sandbox providers: available at once.
      expect(rows.every((r) => r.status === "available" && r.currency === "usd" && r.payout_id === null && r.available_at === r.created_at)).toBe(true);
      const cents = (d: string) => Math.round(Number(d) * 100);
      const expected = 3 * 10750 - 10750 + cents(refundAmount);
      // A row is listed from its insert and counted in the total a write later.
      await eventually(async () => expect(await json("/api/merchants/balance")).toEqual({ available: (expected / 100).toFixed(2), pending: "0.00", currency: "usd" }));
    });

    it("writes no second row when the event that caused one comes again", async () => {
      const event = completedEvents.find((e) => e.merchant_id === merchant.id)!;
      expect(event).toBeDefined();
      const handled = () => ledgerTransport.stats().events.consumed["transaction.completed"] ?? 0;
      const seen = handled();
      const before = await json("/api/merchants/balance");
      await stack.transport.publish(event);
      await eventually(async () => expect(handled()).toBeGreaterThan(seen));
      expect(await allRows("")).toEqual(rows);
      expect(await json("/api/merchants/balance")).toEqual(before);
    });

    it("filters by type, time and payout, and refuses malformed filters with a 400 naming the field", async () => {
      expect((await allRows("&type=return")).map((r) => r.type)).toEqual(["return"]);
      expect((await allRows("&type=debit")).map((r) => r.type)).toEqual(["debit", "debit", "debit"]);
      expect(await allRows("&payout_id=po_0123")).toEqual([]);
      const oldest = rows[rows.length - 1]!.created_at!;
      expect(await allRows(`&to=${encodeURIComponent(oldest)}`)).toEqual([]);
      expect(await allRows(`&from=${encodeURIComponent(oldest)}`)).toEqual(rows);
      expect(await allRows("&from=2999-01-01")).toEqual([]);
      for (const [query, param] of [
        ["from=yesterday", "from"],
        ["to=2026-13-45", "to"],
        ["from=2026-11-01T10:00:00", "from"],
        ["type=payouts", "type"],
        ["limit=0", "limit"],
        ["starting_after=btx_nope", "starting_after"],
        [`starting_after=btx_${"0".repeat(32)}`, "starting_after"],
      ] as const) {
        const reply = await get(`/api/merchants/balance_transactions?${query}`);
        expect(reply.statusCode, query).toBe(400);
        expect(reply.json().error.param, query).toBe(param);
        const exported = await get(`/api/merchants/exports/balance_transactions.csv?${query}`);
        if (param === "from" || param === "to") expect(exported.statusCode, query).toBe(400);
      }
    });

    it("exports the same rows as the list, byte for byte, with and without a window", async () => {
      const reply = await get("/api/merchants/exports/balance_transactions.csv");
      expect(reply.statusCode).toBe(200);
      expect(reply.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(reply.headers["content-disposition"]).toBe('attachment; filename="balance_transactions.csv"');
      expect(reply.body).toBe(expectedCsv(rows));
      const from = encodeURIComponent(rows[3]!.created_at!);
      const to = encodeURIComponent(rows[0]!.created_at!);
      const windowed = await get(`/api/merchants/exports/balance_transactions.csv?from=${from}&to=${to}`);
      expect(windowed.body).toBe(expectedCsv(await allRows(`&from=${from}&to=${to}`)));
      // rows[3] to rows[1], but for a row that shares rows[0]'s millisecond (`to` is exclusive).
      const inWindow = rows.filter((r) => r.created_at! >= rows[3]!.created_at! && r.created_at! < rows[0]!.created_at!);
      expect(inWindow.length).toBeGreaterThan(0);
      expect(windowed.body.split("\r\n").length - 2).toBe(inWindow.length);
    });

    it("exports the merchant's transaction records as the API shows them, amounts as decimals", async () => {
      // Each payment's record as Get Subscription Details answers its consumer.
      const records: Record<string, unknown>[] = [];
      for (const p of payments) {
        const reply = await stack.app.inject({ url: "/api/merchants/manage_subscription/get_subscription_details", headers: { authorization: `Token ${p.consumer.token}` } });
        expect(reply.statusCode, reply.body).toBe(200);
        records.push(...(reply.json() as Record<string, unknown>[]).filter((r) => r["transaction_uuid"] === p.uuid));
      }
      expect(records).toHaveLength(3);
      records.sort((a, b) => String(b["created_at"]).localeCompare(String(a["created_at"])) || String(b["transaction_uuid"]).localeCompare(String(a["transaction_uuid"])));
      const field = (record: Record<string, unknown>, column: string) => {
        const value = record[column];
        if (column === "amount" || column === "amount_refunded") return (value as number).toFixed(2);
        const text = value === undefined || value === null ? "" : String(value);
        return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
      };
      const lines = [TRANSACTION_COLUMNS.join(","), ...records.map((r) => TRANSACTION_COLUMNS.map((c) => field(r, c)).join(","))];
      const csv = await get("/api/merchants/exports/transactions.csv");
      expect(csv.statusCode).toBe(200);
      expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(csv.body).toBe(lines.map((l) => `${l}\r\n`).join(""));
      expect(csv.body).toContain(",107.50,");
      expect(csv.body).toContain(",returned,");
      const newest = encodeURIComponent(String(records[0]!["created_at"]));
      expect((await get(`/api/merchants/exports/transactions.csv?from=${newest}`)).body).toBe([lines[0], lines[1]].map((l) => `${l}\r\n`).join(""));
      expect((await get("/api/merchants/exports/transactions.csv?to=13/11/2026")).statusCode).toBe(400);
      const other = await stack.merchant("Nobody's records");
      expect((await get("/api/merchants/exports/transactions.csv", other.apiKey)).body).toBe(`${TRANSACTION_COLUMNS.join(",")}\r\n`);
    });

    it("exports the merchant's refunds as GET /api/merchants/refunds lists them, and filters that list by time", async () => {
      const listed = await json("/api/merchants/refunds?limit=100");
      expect(listed.data).toHaveLength(1);
      const field = (record: Record<string, unknown>, column: string) => {
        const value = record[column];
        if (column === "amount") return (value as number).toFixed(2);
        const text = value === undefined || value === null ? "" : String(value);
        return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
      };
      const lines = [REFUND_COLUMNS.join(","), ...listed.data.map((r: Record<string, unknown>) => REFUND_COLUMNS.map((c) => field(r, c)).join(","))];
      const csv = await get("/api/merchants/exports/refunds.csv");
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toBe(lines.map((l) => `${l}\r\n`).join(""));
      const requestedAt = encodeURIComponent(listed.data[0].created_at);
      expect((await json(`/api/merchants/refunds?from=${requestedAt}`)).data).toHaveLength(1);
      expect((await json(`/api/merchants/refunds?to=${requestedAt}`)).data).toHaveLength(0);
      expect((await get(`/api/merchants/exports/refunds.csv?to=${requestedAt}`)).body).toBe(`${REFUND_COLUMNS.join(",")}\r\n`);
      const bad = await get("/api/merchants/refunds?from=soon");
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.param).toBe("from");
    });

    it("exports the merchant's checkouts as the list shows them, and windows that list by creation time", async () => {
      const listed = (await json("/api/merchants/checkout?limit=100")).data as Record<string, unknown>[];
      expect(listed.length).toBeGreaterThanOrEqual(3);
      const cell = (value: unknown) => (value === undefined || value === null ? "" : String(value));
      const lines = [
        CHECKOUT_COLUMNS.join(","),
        ...listed.map((c) => {
          const amounts = c["amounts"] as { total: string; currency: string };
          const transfer = c["transfer"] as { transaction_uuid: string; status: string } | null;
          const row: Record<string, unknown> = {
            ...c,
            amount: Number(amounts.total).toFixed(2),
            currency: amounts.currency,
            amount_refunded: (c["amount_refunded"] as number).toFixed(2),
            transaction_uuid: transfer?.transaction_uuid,
            transfer_status: transfer?.status,
          };
          const fields = CHECKOUT_COLUMNS.map((column) => cell(row[column]));
          for (const f of fields) expect(f).not.toMatch(/[",\r\n]/);
          return fields.join(",");
        }),
      ];
      const csv = await get("/api/merchants/exports/checkouts.csv");
      expect(csv.statusCode).toBe(200);
      expect(csv.headers["content-disposition"]).toBe('attachment; filename="checkouts.csv"');
      expect(csv.body).toBe(lines.map((l) => `${l}\r\n`).join(""));
      expect(csv.body).toContain(",107.50,USD,");

      // The window: the newest checkout alone from its own creation time, none before the oldest.
      const newest = encodeURIComponent(String(listed[0]!["created_at"]));
      const windowed = (await json(`/api/merchants/checkout?from=${newest}`)).data as { id: string }[];
      expect(windowed.map((c) => c.id)).toEqual(listed.filter((c) => c["created_at"] === listed[0]!["created_at"]).map((c) => c["id"]));
      const oldest = encodeURIComponent(String(listed[listed.length - 1]!["created_at"]));
      expect((await json(`/api/merchants/checkout?to=${oldest}`)).data).toEqual([]);
      // Paging inside a window continues where the page ended, in the same order.
      const first = await json(`/api/merchants/checkout?from=2000-01-01&limit=2`);
      const second = await json(`/api/merchants/checkout?from=2000-01-01&limit=100&starting_after=${first.data[1].id}`);
      expect([...first.data, ...second.data].map((c: { id: string }) => c.id)).toEqual(listed.map((c) => c["id"]));
      expect((await get("/api/merchants/exports/checkouts.csv?from=yesterday")).statusCode).toBe(400);
      const other = await stack.merchant("No checkouts");
      expect((await get("/api/merchants/exports/checkouts.csv", other.apiKey)).body).toBe(`${CHECKOUT_COLUMNS.join(",")}\r\n`);
    });

    it("shows another merchant nothing", async () => {
      const other = await stack.merchant("Elsewhere");
      expect(await json("/api/merchants/balance", other.apiKey)).toEqual({ available: "0.00", pending: "0.00", currency: "usd" });
      expect(await allRows("", other.apiKey)).toEqual([]);
      expect((await get("/api/merchants/exports/balance_transactions.csv", other.apiKey)).body).toBe(expectedCsv([]));
      const reply = await get(`/api/merchants/balance_transactions?starting_after=${rows[0]!.id}`, other.apiKey);
      expect(reply.statusCode).toBe(400);
      expect((await get("/api/merchants/balance")).statusCode).toBe(200);
      expect((await stack.app.inject({ url: "/api/merchants/balance" })).statusCode).toBe(401);
    });

    it("streams an export longer than one page in the list's order", async () => {
      const big = await stack.merchant("Many rows");
      // Rows as the ledger writes them, straight into its collection: this test is about the stream.
      const rows = new BalanceTransactionRepository(await variant.store());
      const hex = (i: number) => i.toString(16).padStart(32, "0");
      for (let i = 0; i < 105; i++) {
        const at = new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString();
        const source = `sc-${hex(i)}`;
        await rows.insert({ _id: balanceTransactionId("debit", source), merchantId: big.id, type: "debit", amountCents: 100 * i + 1, currency: "usd", source, eventId: `evt_${hex(i)}`, createdAt: at, availableAt: at, payoutId: null, counted: true });
      }
      const listed = await allRows("", big.apiKey, 100);
      expect(listed).toHaveLength(105);
      const csv = (await get("/api/merchants/exports/balance_transactions.csv", big.apiKey)).body;
      expect(csv).toBe(expectedCsv(listed));
    });
  });
});
