import { randomUUID } from "node:crypto";
import { silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { DayTotalsRepository } from "../src/data-access/day-totals.repository.ts";
import { JobLeaseRepository } from "../src/data-access/job-lease.repository.ts";
import { TransactionRepository } from "../src/data-access/transaction.repository.ts";
import { backfillDayTotals } from "../src/domain/payment-stats/backfill-day-totals.use-case.ts";
import { countDayTotal } from "../src/domain/payment-stats/count-day-total.ts";
import { getPaymentStats } from "../src/domain/payment-stats/get-payment-stats.use-case.ts";
import type { TransactionDoc, TransactionStatus } from "../src/domain/transactions/transaction.entity.ts";

const variants = await infraVariants();
const NOW = new Date("2026-11-26T12:00:00.000Z");
const DAY_MS = 86_400_000;
const daysAgo = (d: number) => new Date(NOW.getTime() - d * DAY_MS).toISOString();
let numbers = 0;

/** A debit's record as payments stores it, in `status`, made `createdDaysAgo` days before NOW. */
function debit(merchantId: string, status: TransactionStatus, createdDaysAgo: number, amountCents: number): TransactionDoc {
  const uuid = randomUUID();
  const createdAt = daysAgo(createdDaysAgo);
  return {
    _id: uuid,
    id: ++numbers,
    transaction_uuid: uuid,
    processor_transaction_id: `tr_${uuid}`,
    amount: amountCents / 100,
    user_id: "usr_test",
    consumer_transaction_id: uuid,
    merchant_transaction_id: uuid,
    checkout_id: numbers,
    transaction_status: status,
    transaction_date_time: createdAt,
    description: null,
    error: null,
    created_at: createdAt,
    updated_at: createdAt,
    checkoutRef: `chk_${uuid.replaceAll("-", "")}`,
    merchantId,
    isSubscription: false,
    amountCents,
    currency: "USD",
  } as TransactionDoc;
}

/**
 * The overview's settled counts and volume (issue 22's gap): exact per-merchant per-day totals,
 * each debit counted once by one conditional write whatever replays, races or backfills it.
 */
describe.each(variants)("day totals over $name", (variant) => {
  let store: Store;
  let dayTotals: DayTotalsRepository;
  let transactions: TransactionRepository;
  const stats = (merchantId: string) => getPaymentStats({ transactions, dayTotals, now: () => NOW }, merchantId);
  const volumes = async (merchantId: string) => (await stats(merchantId)).windows.map((w) => [w.days, w.settled, w.settled_volume]);

  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    dayTotals = new DayTotalsRepository(store);
    await dayTotals.ensureIndexes();
    transactions = new TransactionRepository(store);
    await transactions.ensureIndexes();
  });
  afterAll(() => variant.cleanup());

  describe.skipIf(!!variant.skipReason)("counting", () => {
    it("adds settlements on the days their debits were made, each window reading its days", async () => {
      const merchant = `mer_${randomUUID()}`;
      for (const t of [debit(merchant, "completed", 0, 1_000), debit(merchant, "completed", 6, 250), debit(merchant, "completed", 7, 5_005), debit(merchant, "completed", 29, 1), debit(merchant, "completed", 30, 99_999)]) {
        await countDayTotal({ dayTotals }, t);
      }
      // Pending and failed debits add nothing.
      await countDayTotal({ dayTotals }, debit(merchant, "pending", 1, 700));
      await countDayTotal({ dayTotals }, debit(merchant, "failed", 1, 700));
      expect(await volumes(merchant)).toEqual([
        [7, 2, "12.50"],
        [30, 4, "62.56"],
      ]);
      // Another merchant's days are its own.
      expect(await volumes(`mer_${randomUUID()}`)).toEqual([
        [7, 0, "0.00"],
        [30, 0, "0.00"],
      ]);
    });

    it("counts a replayed settlement once, and takes a returned one back once", async () => {
      const merchant = `mer_${randomUUID()}`;
      const settled = debit(merchant, "completed", 2, 4_200);
      const other = debit(merchant, "completed", 2, 100);
      await countDayTotal({ dayTotals }, settled);
      await countDayTotal({ dayTotals }, settled);
      await countDayTotal({ dayTotals }, other);
      await countDayTotal({ dayTotals }, settled);
      expect(await volumes(merchant)).toEqual([
        [7, 2, "43.00"],
        [30, 2, "43.00"],
      ]);
      const returned = { ...settled, transaction_status: "returned" as const };
      await countDayTotal({ dayTotals }, returned);
      await countDayTotal({ dayTotals }, returned);
      // A late replay of the settlement after its return counts nothing either.
      await countDayTotal({ dayTotals }, settled);
      expect(await volumes(merchant)).toEqual([
        [7, 1, "1.00"],
        [30, 1, "1.00"],
      ]);
      // The chart's day counts the return once, on the day its debit was made.
      const day = (await stats(merchant)).days.find((d) => d.day === settled.created_at.slice(0, 10));
      expect([day?.settled, day?.returned, day?.returned_volume]).toEqual([1, 1, "42.00"]);
    });

    it("never counts a debit whose return was recorded before its settlement", async () => {
      const merchant = `mer_${randomUUID()}`;
      const settled = debit(merchant, "completed", 3, 900);
      await countDayTotal({ dayTotals }, { ...settled, transaction_status: "returned" });
      await countDayTotal({ dayTotals }, settled);
      expect(await volumes(merchant)).toEqual([
        [7, 0, "0.00"],
        [30, 0, "0.00"],
      ]);
      expect((await stats(merchant)).days.reduce((sum, d) => sum + d.returned, 0)).toBe(1);
    });

    it("counts 40 concurrent settlements on one new day exactly, each replayed at the same time", async () => {
      const merchant = `mer_${randomUUID()}`;
      const debits = Array.from({ length: 40 }, (_, i) => debit(merchant, "completed", 1, 100 + i));
      await Promise.all([...debits, ...debits].map((t) => countDayTotal({ dayTotals }, t)));
      const cents = debits.reduce((sum, t) => sum + t.amountCents, 0);
      expect(await volumes(merchant)).toEqual([
        [7, 40, (cents / 100).toFixed(2)],
        [30, 40, (cents / 100).toFixed(2)],
      ]);
      // Concurrent returns of half of them, each twice.
      const half = debits.slice(0, 20).map((t) => ({ ...t, transaction_status: "returned" as const }));
      await Promise.all([...half, ...half].map((t) => countDayTotal({ dayTotals }, t)));
      const left = debits.slice(20).reduce((sum, t) => sum + t.amountCents, 0);
      expect((await stats(merchant)).windows[1]).toMatchObject({ settled: 20, settled_volume: (left / 100).toFixed(2) });
    });

    it("backfills the last 31 days' settled and returned debits once, under a lease, without counting twice", async () => {
      const merchant = `mer_${randomUUID()}`;
      const docs = [
        ...Array.from({ length: 7 }, (_, i) => debit(merchant, "completed", i * 4, 1_000)),
        debit(merchant, "returned", 2, 3_000),
        debit(merchant, "completed", 40, 7_777), // older than any window: not read into a day
        debit(merchant, "pending", 1, 500),
      ];
      for (const d of docs) await uncheckedStore(store).collection<TransactionDoc>("transactions").insertOne(d);
      // One of them was counted live already, as a settlement replayed during the backfill would be.
      await countDayTotal({ dayTotals }, docs[0]!);
      const deps = { transactions, dayTotals, jobs: new JobLeaseRepository(store), logger: silentLogger(), now: () => NOW, backfillLeaseMs: 60_000 };
      // Two replicas start at once: one holds the lease and backfills, the other skips.
      const runs = await Promise.all([backfillDayTotals(deps), backfillDayTotals(deps)]);
      expect(runs.sort()).toEqual(["done", "skipped"]);
      expect(await backfillDayTotals(deps)).toBe("skipped");
      expect(await volumes(merchant)).toEqual([
        [7, 2, "20.00"], // 0 and 4 days ago
        [30, 7, "70.00"],
      ]);
    });
  });
});
