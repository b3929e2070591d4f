import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { JobLeases, type Store } from "@payrail/store";
import { checkBooks } from "../../../bin/check/check-books.ts";
import type { Divergence } from "../../../bin/check/divergence.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { storeWithFaults, type StoreWrite } from "../../../test/support/store-with-faults.ts";
import { AuditLogRepository } from "../src/data-access/audit-log.repository.ts";
import { BalanceTransactionRepository } from "../src/data-access/balance-transaction.repository.ts";
import { BalanceRepository } from "../src/data-access/balance.repository.ts";
import { PayoutRepository } from "../src/data-access/payout.repository.ts";
import { balanceTransactionId, type BalanceTransactionDoc } from "../src/domain/balance-transaction.entity.ts";
import type { PayoutDeps } from "../src/domain/ledger.deps.ts";
import { payoutIdFor, type PayoutDoc } from "../src/domain/payout.entity.ts";
import { bookRow } from "../src/domain/record-entry.use-case.ts";
import { payOutUnderLease } from "../src/domain/run-payouts.use-case.ts";
import { createIndexes } from "../src/indexes.ts";

const variants = await infraVariants();
const hex = () => Array.from({ length: 32 }, () => "0123456789abcdef"[Math.floor(Math.random() * 16)]).join("");
const LEASE_MS = 60_000;
/** The stalled run's clock; the run that takes over comes after its lease ran out, the same UTC day. */
const STALLED_AT = new Date("2026-11-24T12:00:00.000Z");
const DAY = STALLED_AT.toISOString().slice(0, 10);
const TAKEOVER_AT = new Date(STALLED_AT.getTime() + LEASE_MS + 1_000);

/** A write the test holds until it lets it go: a process that stalled right before it. */
function gate() {
  let open!: () => void;
  let reached!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const hit = new Promise<void>((resolve) => (reached = resolve));
  return { opened, hit, open, reached };
}

/**
 * The payout run's fencing token (docs/decisions/0050-payouts.md) on each store: a run whose
 * merchant lease runs out while it stalls (held at a chosen write by a store fake) is taken over
 * by a second run that completes the payout; when the first resumes, its late writes match
 * nothing: the payout's amount is the sum of its rows, the books add up, and the money moves once.
 */
describe.each(variants)("a stalled payout run over $name", (variant) => {
  let store: Store;
  const sent: { payout_id: string; amount_cents: number }[] = [];

  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    await createIndexes(store);
  });
  afterAll(() => variant.cleanup());

  const deps = (over: Store, now: Date): PayoutDeps => ({
    rows: new BalanceTransactionRepository(over),
    balances: new BalanceRepository(over),
    auditLog: new AuditLogRepository(over),
    payouts: new PayoutRepository(over),
    jobs: new JobLeases(over, "ledger_job_leases"),
    transfers: {
      async createPayout(_requestId, input) {
        sent.push({ payout_id: input.payout_id, amount_cents: input.amount_cents });
        return { status: "pending", transfer_id: `tr_${input.payout_id}` };
      },
    },
    leaseMs: LEASE_MS,
    livemode: false,
    events: { written: () => undefined },
    availableDays: 0,
    logger: silentLogger(),
    now: () => now,
  });
  /** The first run's deps: its store holds the first write `stallAt` picks until the test lets it go. */
  const stalling = (stallAt: (write: StoreWrite) => boolean) => {
    const held = gate();
    let armed = true;
    const faulty = storeWithFaults(store, {
      async before(write) {
        if (!armed || !stallAt(write)) return;
        armed = false;
        held.reached();
        await held.opened;
      },
    });
    return { deps: deps(faulty, STALLED_AT), held };
  };
  const row = async (merchantId: string, type: "debit" | "return", cents: number, minutesBefore: number) => {
    const source = `sc-${hex()}`;
    const at = new Date(STALLED_AT.getTime() - minutesBefore * 60_000).toISOString();
    const doc: BalanceTransactionDoc = {
      _id: balanceTransactionId(type, source),
      merchantId,
      type,
      amountCents: cents,
      currency: "usd",
      source,
      eventId: `evt_${hex()}`,
      createdAt: at,
      availableAt: at,
      payoutId: null,
      counted: false,
    };
    await bookRow(deps(store, STALLED_AT), doc);
    return doc._id;
  };
  /** What `payrail check`'s books check finds about this merchant and its payouts. */
  const books = async (merchantId: string, payoutIds: string[]) => {
    const found: Divergence[] = [];
    await checkBooks({ store, now: TAKEOVER_AT, graceMs: 0, settledBefore: "1970-01-01T00:00:00.000Z" }, (d) => void found.push(d));
    return found.filter((d) => d.id === merchantId || payoutIds.includes(d.id));
  };
  const rowsIn = async (payoutId: string) =>
    (await store.collection<BalanceTransactionDoc>("balance_transactions").find({ merchantId: (await payoutOf(payoutId)).merchantId, payoutId }))
      .filter((r) => r.source !== payoutId)
      .map((r) => r._id)
      .sort();
  const payoutOf = async (id: string) => (await store.collection<PayoutDoc>("payouts").findOne({ _id: id }))!;
  const rowWrite = (id: string, payoutId: string | null) => (w: StoreWrite) =>
    w.collection === "balance_transactions" && w.filter["_id"] === id && w.update.$set?.["payoutId"] === payoutId;

  /**
   * The payout, fixed once, contains exactly `rows` and its amount is their sum, `payrail check`'s
   * books check finds nothing, its money was asked for once, and the stalled run stopped, told
   * that another run has its payout (a sandbox run answers 409).
   */
  const expectPaidOnce = async (merchantId: string, payoutId: string, cents: number, rows: string[], resumed: unknown) => {
    expect(await payoutOf(payoutId)).toMatchObject({ stage: "created", amountCents: cents, transferId: `tr_${payoutId}` });
    expect(await rowsIn(payoutId)).toEqual([...rows].sort());
    expect(await books(merchantId, [payoutId])).toEqual([]);
    expect(sent.filter((s) => s.payout_id === payoutId)).toEqual([{ payout_id: payoutId, amount_cents: cents }]);
    expect(resumed).toMatchObject({ code: "payout_in_progress" });
  };

  describe.skipIf(!!variant.skipReason)("fencing", () => {
    it("refuses a stalled run's late row write once another run completed the payout", async () => {
      const merchantId = `mer_${hex()}`;
      const first = await row(merchantId, "debit", 10_000, 30);
      const second = await row(merchantId, "debit", 2_500, 20);
      const a = stalling((w) => w.collection === "balance_transactions" && w.update.$set?.["payoutId"] !== undefined);
      const stalled = payOutUnderLease(a.deps, merchantId, "req-a", false);
      await a.held.hit;
      // Meanwhile another movement arrives, and the lease runs out: the second run pays all three.
      const third = await row(merchantId, "debit", 700, 10);
      const done = await payOutUnderLease(deps(store, TAKEOVER_AT), merchantId, "req-b", false);
      expect(done).toMatchObject({ stage: "created", amountCents: 13_200 });
      const payout = done as PayoutDoc;
      a.held.open();
      const resumed = await stalled.then(() => "resolved", (err: unknown) => err);
      await expectPaidOnce(merchantId, payout._id, 13_200, [first, second, third], resumed);
    });

    it("refuses a stalled run's amount fixed from a stale sum while the run that took over puts a new row in", async () => {
      const merchantId = `mer_${hex()}`;
      const first = await row(merchantId, "debit", 10_000, 30);
      // The first run gathered and summed its one row, and stalls before it fixes the amount.
      const a = stalling((w) => w.collection === "payouts" && w.update.$set?.["stage"] === "created");
      const stalled = payOutUnderLease(a.deps, merchantId, "req-a", false);
      await a.held.hit;
      const late = await row(merchantId, "debit", 4_000, 10);
      // The second run takes over and stalls too, right before it puts the new row in.
      const takenOver = { reached: false };
      const b = storeWithFaults(store, {
        async before(write) {
          if (!rowWrite(late, payoutIdFor(merchantId, DAY))(write) || takenOver.reached) return;
          takenOver.reached = true;
          a.held.open();
          // Whatever the first run does when it resumes happens before this row goes in.
          await stalled.catch(() => undefined);
        },
      });
      const done = await payOutUnderLease(deps(b, TAKEOVER_AT), merchantId, "req-b", false);
      expect(takenOver.reached).toBe(true);
      const resumed = await stalled.then(() => "resolved", (err: unknown) => err);
      const payout = done as PayoutDoc;
      expect(payout).toMatchObject({ stage: "created", amountCents: 14_000 });
      await expectPaidOnce(merchantId, payout._id, 14_000, [first, late], resumed);
    });

    it("refuses a stalled run's late taking apart of a payout that came to nothing, once another run filled and fixed it", async () => {
      const merchantId = `mer_${hex()}`;
      const debit = await row(merchantId, "debit", 5_000, 30);
      const returned = await row(merchantId, "return", -5_000, 25);
      // The day's payout, left open by a run that died after making it.
      const id = payoutIdFor(merchantId, DAY);
      await new PayoutRepository(store).insert({
        _id: id,
        merchantId,
        day: DAY,
        stage: "open",
        amountCents: 0,
        currency: "usd",
        cutoff: STALLED_AT.toISOString(),
        transferId: null,
        failureCode: null,
        failureReason: null,
        fence: 0,
        version: 0,
        createdAt: STALLED_AT.toISOString(),
        updatedAt: STALLED_AT.toISOString(),
      });
      // The first run finds the rows sum to nothing, and stalls as it takes the debit out again.
      const a = stalling(rowWrite(debit, null));
      const stalled = payOutUnderLease(a.deps, merchantId, "req-a", false);
      await a.held.hit;
      const fresh = await row(merchantId, "debit", 3_000, 10);
      const done = await payOutUnderLease(deps(store, TAKEOVER_AT), merchantId, "req-b", false);
      const payout = done as PayoutDoc;
      expect(payout).toMatchObject({ _id: id, stage: "created", amountCents: 3_000 });
      a.held.open();
      const resumed = await stalled.then(() => "resolved", (err: unknown) => err);
      await expectPaidOnce(merchantId, payout._id, 3_000, [debit, returned, fresh], resumed);
    });
  });
});
