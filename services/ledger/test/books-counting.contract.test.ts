import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { centsToDecimal, type AnyDomainEvent, type Principal } from "@payrail/contracts";
import { silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { infraVariants } from "../../../test/support/infra.ts";
import { AuditLogRepository } from "../src/data-access/audit-log.repository.ts";
import { BalanceTransactionRepository } from "../src/data-access/balance-transaction.repository.ts";
import { BalanceRepository } from "../src/data-access/balance.repository.ts";
import { getBalance } from "../src/domain/get-balance.use-case.ts";
import type { LedgerDeps } from "../src/domain/ledger.deps.ts";
import { listBalanceTransactions } from "../src/domain/list-balance-transactions.use-case.ts";
import { recordEntry } from "../src/domain/record-entry.use-case.ts";

const variants = await infraVariants();
const hex = () => Array.from({ length: 32 }, () => "0123456789abcdef"[Math.floor(Math.random() * 16)]).join("");

/** A domain event as payments or refunds publishes it, for `merchantId`, written at `at`. */
function event(type: "transaction.completed" | "transaction.returned" | "refund.completed", merchantId: string, object: Record<string, unknown>, at: string): AnyDomainEvent {
  const aggregate = type.startsWith("refund") ? "refund" : "transaction";
  const id = (object["id"] ?? object["transaction_uuid"]) as string;
  return { id: `evt_${hex()}`, type, created_at: at, merchant_id: merchantId, aggregate: { type: aggregate, id, version: 2 }, data: { object } } as AnyDomainEvent;
}
const debit = (m: string, uuid: string, amount: number, at: string) => event("transaction.completed", m, { transaction_uuid: uuid, transaction_status: "completed", amount }, at);
const returned = (m: string, uuid: string, amount: number, at: string) => event("transaction.returned", m, { transaction_uuid: uuid, transaction_status: "returned", amount }, at);
const refund = (m: string, uuid: string, amount: number, at: string) =>
  event("refund.completed", m, { id: `rfd_${hex()}`, transaction_uuid: uuid, status: "completed", amount, currency: "USD" }, at);
const as = (merchantId: string): Principal => ({ kind: "merchant", merchantId }) as Principal;

/**
 * The ledger's counting on each store (docs/decisions/0042-merchant-books.md): rows written once
 * per movement, the running total counting each exactly once under races and after a crash
 * between the total's write and the row's flag, and pending read from `available_at`.
 */
describe.each(variants)("the merchant's books over $name", (variant) => {
  let store: Store;
  let deps: LedgerDeps;
  let now = new Date("2026-11-24T12:00:00.000Z"); // a Tuesday

  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    const rows = new BalanceTransactionRepository(store);
    await rows.ensureIndexes();
    deps = { rows, balances: new BalanceRepository(store), auditLog: new AuditLogRepository(store), availableDays: 2, logger: silentLogger(), now: () => now };
  });
  afterAll(() => variant.cleanup());

  const balance = (m: string) => getBalance(deps, as(m));
  const list = (m: string, query: Record<string, unknown> = {}) => listBalanceTransactions(deps, as(m), { limit: 100, ...query } as never);

  describe.skipIf(!!variant.skipReason)("counting", () => {
    it("keeps a settled debit pending for two banking days, takes a return and a refund at once, and answers signed decimals", async () => {
      const m = `mer_${hex()}`;
      now = new Date("2026-11-27T12:00:00.000Z"); // Friday
      await recordEntry(deps, debit(m, `sc-${hex()}`, 100.25, "2026-11-27T10:00:00.000Z"));
      const second = `sc-${hex()}`;
      await recordEntry(deps, debit(m, second, 40, "2026-11-27T11:00:00.000Z"));
      expect(await balance(m)).toEqual({ available: "0.00", pending: "140.25", currency: "usd" });
      await recordEntry(deps, returned(m, second, 40, "2026-11-27T11:30:00.000Z"));
      await recordEntry(deps, refund(m, second, 0.25, "2026-11-27T11:45:00.000Z"));
      expect(await balance(m)).toEqual({ available: "-40.25", pending: "140.25", currency: "usd" });
      const rows = (await list(m)).data;
      expect(rows.map((r) => [r.type, r.amount, r.status])).toEqual([
        ["refund", "-0.25", "available"],
        ["return", "-40.00", "available"],
        ["debit", "40.00", "pending"],
        ["debit", "100.25", "pending"],
      ]);
      expect(rows[3]!.available_at).toBe("2026-12-01T10:00:00.000Z");
      now = new Date("2026-12-01T10:59:59.999Z");
      expect(await balance(m)).toEqual({ available: "60.00", pending: "40.00", currency: "usd" });
      now = new Date("2026-12-01T11:00:00.000Z");
      expect(await balance(m)).toEqual({ available: "100.00", pending: "0.00", currency: "usd" });
      expect((await list(m)).data.every((r) => r.status === "available")).toBe(true);
    });

    it("writes one row and counts it once when the same event comes again, or the same movement in another event", async () => {
      const m = `mer_${hex()}`;
      const uuid = `sc-${hex()}`;
      const first = debit(m, uuid, 12.5, "2026-11-20T10:00:00.000Z");
      await recordEntry(deps, first);
      await recordEntry(deps, first);
      await recordEntry(deps, { ...first, id: `evt_${hex()}` });
      await Promise.all([recordEntry(deps, first), recordEntry(deps, first)]);
      expect((await list(m)).data).toHaveLength(1);
      expect(await balance(m)).toEqual({ available: "12.50", pending: "0.00", currency: "usd" });
    });

    it("counts every row exactly once when many movements of one merchant race", async () => {
      const m = `mer_${hex()}`;
      // As many as one subscriber handles at once, and some of them twice.
      const events = Array.from({ length: 12 }, (_, i) => debit(m, `sc-${hex()}`, i + 1, `2026-11-10T10:00:${String(i).padStart(2, "0")}.000Z`));
      await Promise.all([...events, ...events.slice(0, 4)].map((e) => recordEntry(deps, e)));
      const rows = (await list(m)).data;
      expect(rows).toHaveLength(12);
      expect(await balance(m)).toEqual({ available: centsToDecimal(100 * ((12 * 13) / 2)), pending: "0.00", currency: "usd" });
      expect((await store.collection<{ _id: string; counted: boolean; merchantId: string }>("balance_transactions").find({ merchantId: m })).every((r) => r.counted)).toBe(true);
    });

    it("never counts a row twice when a crash left the total written and the row unflagged", async () => {
      const m = `mer_${hex()}`;
      const e = debit(m, `sc-${hex()}`, 7, "2026-11-20T10:00:00.000Z");
      // What a process does up to the crash: the row, then the total's write, and no flag.
      const rows = new BalanceTransactionRepository(store);
      const failing: LedgerDeps = { ...deps, rows: Object.assign(Object.create(rows) as BalanceTransactionRepository, { markCounted: () => Promise.reject(new Error("crash")) }) };
      await expect(recordEntry(failing, e)).rejects.toThrow("crash");
      expect(await balance(m)).toEqual({ available: "7.00", pending: "0.00", currency: "usd" });
      // The event again (the transport's retry), then another movement: still counted once.
      await recordEntry(deps, e);
      await recordEntry(deps, debit(m, `sc-${hex()}`, 3, "2026-11-20T11:00:00.000Z"));
      expect(await balance(m)).toEqual({ available: "10.00", pending: "0.00", currency: "usd" });
      // A crash, then another movement before the retry: the next write flags the first row.
      const m2 = `mer_${hex()}`;
      const lost = debit(m2, `sc-${hex()}`, 5, "2026-11-20T10:00:00.000Z");
      await expect(recordEntry(failing, lost)).rejects.toThrow("crash");
      await recordEntry(deps, debit(m2, `sc-${hex()}`, 1, "2026-11-20T11:00:00.000Z"));
      await recordEntry(deps, lost);
      expect(await balance(m2)).toEqual({ available: "6.00", pending: "0.00", currency: "usd" });
    });

    it("filters by time, type and payout, pages newest first, and shows another merchant nothing", async () => {
      const m = `mer_${hex()}`;
      const uuid = `sc-${hex()}`;
      await recordEntry(deps, debit(m, uuid, 10, "2026-10-01T00:00:00.000Z"));
      await recordEntry(deps, debit(m, `sc-${hex()}`, 20, "2026-10-02T00:00:00.000Z"));
      await recordEntry(deps, returned(m, uuid, 10, "2026-10-03T00:00:00.000Z"));
      expect((await list(m, { from: "2026-10-02", to: "2026-10-03T00:00:00Z" })).data.map((r) => r.amount)).toEqual(["20.00"]);
      expect((await list(m, { from: "2026-10-02T02:00:00+02:00" })).data.map((r) => r.amount)).toEqual(["-10.00", "20.00"]);
      expect((await list(m, { type: "return" })).data.map((r) => r.amount)).toEqual(["-10.00"]);
      expect((await list(m, { payout_id: "po_none" })).data).toEqual([]);
      const first = await list(m, { limit: 2 });
      expect(first.has_more).toBe(true);
      const next = await list(m, { limit: 2, starting_after: first.data[1]!.id });
      expect([...first.data, ...next.data].map((r) => r.created_at)).toEqual(["2026-10-03T00:00:00.000Z", "2026-10-02T00:00:00.000Z", "2026-10-01T00:00:00.000Z"]);
      expect(next.has_more).toBe(false);
      const other = `mer_${hex()}`;
      expect((await list(other)).data).toEqual([]);
      expect(await balance(other)).toEqual({ available: "0.00", pending: "0.00", currency: "usd" });
      await expect(list(other, { starting_after: first.data[0]!.id })).rejects.toMatchObject({ code: "parameter_invalid" });
    });
  });
});
