import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError, reconcileOp, type AnyDomainEvent, type AuditEntry } from "@payrail/contracts";
import * as ledger from "@payrail/ledger";
import type { Transport } from "@payrail/messaging";
import type { TransferPort } from "@payrail/payments";
import { silentLogger } from "@payrail/runtime";
import type { Filter, Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { transfersWith } from "../../../test/support/transfers-with.ts";
import { payment, refundClient, requested, type Payment } from "./support/refund-flow.ts";
import { checkBooks } from "../../../bin/check/check-books.ts";
import type { Divergence } from "../../../bin/check/divergence.ts";

const variants = await infraVariants();
const DAY_MS = 86_400_000;
/** Where the merchant's integration calls from: the address its audit entries must show. */
const MERCHANT_IP = "203.0.113.9";

type Row = { id: string; type: string; amount: string; source: string; payout_id: string | null };
type Payout = { id: string; amount: string; status: string; day: string; transfer_id: string | null; failure_code: string | null };
type SandboxTransfer = { _id: string; correlationId: string; sourceFundingSource: string; destinationFundingSource: string; amountCents: number; status: string };

const cents = (d: string) => Math.round(Number(d) * 100);

/**
 * Payouts end to end (docs/decisions/0050-payouts.md): the ledger beside the stack, on a clock the
 * test moves a day at a time, fed by real payments, returns and refunds through the gateway; its
 * payouts sent through payments and the sandbox provider, and settled by sandbox simulations.
 */
describe.each(variants)("payouts over $name", (variant) => {
  let stack: Stack;
  let store: Store;
  let service: { stop(): Promise<void> } | undefined;
  let spy: Transport | undefined;
  /** Days the ledger's clock runs ahead of the real one (each a new payout day). */
  let days = 0;
  /** The provider answers nothing to the next payout transfer it makes (a call that dies after the provider acted). */
  let loseNextPayoutAnswer = false;
  const payoutEvents: AnyDomainEvent[] = [];

  const wrapTransfers = (inner: TransferPort): TransferPort =>
    transfersWith(inner, {
      async createTransfer(input) {
        const made = await inner.createTransfer(input);
        if (input.metadata?.["payout_id"] && loseNextPayoutAnswer) {
          loseNextPayoutAnswer = false;
          throw new AppError("provider_error", "the transfer provider did not answer", { providerCode: "network_error" });
        }
        return made;
      },
    });

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant, { wrapTransfers });
    store = await variant.store();
    service = await ledger.start({
      transport: await variant.transport(),
      store,
      logger: silentLogger(),
      payoutEveryMs: 0,
      outboxPollMs: 100,
      now: () => new Date(Date.now() + days * DAY_MS),
      subscribe: { retry: { firstDelayMs: 100, maxDelayMs: 500 } },
    });
    spy = await variant.transport();
    await spy.subscribe("payouts-spy", ["payout.created", "payout.paid", "payout.failed"], async (event) => void payoutEvents.push(event));
  });
  afterAll(async () => {
    await service?.stop();
    await spy?.close();
    await stack?.close();
    await variant.cleanup();
  });

  const get = (url: string, apiKey: string) => stack.app.inject({ url, headers: { "api-key": apiKey } });
  const json = async (url: string, apiKey: string) => {
    const reply = await get(url, apiKey);
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json();
  };
  const run = (apiKey: string) => stack.app.inject({ method: "POST", url: "/api/sandbox/payouts/run", headers: { "api-key": apiKey }, payload: {}, remoteAddress: MERCHANT_IP });
  const runOk = async (apiKey: string): Promise<Payout | null> => {
    const reply = await run(apiKey);
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json().payout;
  };
  const simulate = (apiKey: string, id: string, body: object) =>
    stack.app.inject({ method: "POST", url: `/api/sandbox/payouts/${id}/simulate`, headers: { "api-key": apiKey }, payload: body, remoteAddress: MERCHANT_IP });
  const available = async (apiKey: string) => (await json("/api/merchants/balance", apiKey)).available as string;
  const rowsOf = async (apiKey: string, query = ""): Promise<Row[]> => (await json(`/api/merchants/balance_transactions?limit=100${query}`, apiKey)).data;
  /** The merchant's audit entries of `action` (docs/decisions/0054-audit-log.md), newest first. */
  const audited = async (apiKey: string, action: string): Promise<AuditEntry[]> => (await json(`/api/merchants/audit_log?limit=100&action=${action}`, apiKey)).data;
  /** The objects `entries` name, one per entry (an object recorded twice appears twice). */
  const objectIds = (entries: AuditEntry[]) => entries.map((e) => e.object.id).sort();
  const providerTransfers = (filter: Filter) => uncheckedStore(store).collection<SandboxTransfer>("sandbox_transfers").find(filter);

  describe.skipIf(!!variant.skipReason)("one merchant's month", () => {
    let merchant: { id: string; apiKey: string };
    let paid: Payment[];
    const payouts: Payout[] = [];

    beforeAll(async () => {
      merchant = await stack.merchant("Payout Books Inc");
    });

    it("pays the available balance out once a day, and its report adds up to its amount", async () => {
      paid = [await payment(stack, merchant.apiKey), await payment(stack, merchant.apiKey), await payment(stack, merchant.apiKey)];
      const refunds = refundClient(stack);
      const refund = await requested(stack, paid[2]!);
      expect((await refunds.decide({ "api-key": merchant.apiKey }, refund.id, "Approved")).statusCode).toBe(200);
      const transferId = (await refunds.initiate({ "api-key": merchant.apiKey }, refund.id)).json().refund.refund_transaction_id as string;
      expect((await refunds.simulate(merchant.apiKey, transferId, "completed")).statusCode).toBe(200);
      const booked = await eventually(async () => {
        const rows = await rowsOf(merchant.apiKey);
        expect(rows).toHaveLength(4);
        return rows;
      });
      const sum = booked.reduce((s, r) => s + cents(r.amount), 0);
      await eventually(async () => expect(cents(await available(merchant.apiKey))).toBe(sum));

      const payout = (await runOk(merchant.apiKey))!;
      expect(payout).toMatchObject({ status: "pending", day: new Date().toISOString().slice(0, 10), failure_code: null });
      expect(payout.id).toMatch(/^po_[0-9a-f]{32}$/);
      expect(cents(payout.amount)).toBe(sum);
      expect(payout.transfer_id).not.toBeNull();
      payouts.push(payout);
      expect(await available(merchant.apiKey)).toBe("0.00");
      // The same day, the same payout: nothing new to pay.
      expect((await runOk(merchant.apiKey))!.id).toBe(payout.id);

      const report = await json(`/api/merchants/payouts/${payout.id}`, merchant.apiKey);
      const rows: Row[] = report.balance_transactions.data;
      expect(report.balance_transactions.has_more).toBe(false);
      expect(rows.map((r) => r.type).sort()).toEqual(["debit", "debit", "debit", "payout", "refund"]);
      expect(rows.every((r) => r.payout_id === payout.id)).toBe(true);
      const own = rows.find((r) => r.type === "payout")!;
      expect(own).toMatchObject({ source: payout.id, amount: `-${payout.amount}` });
      expect(rows.filter((r) => r !== own).reduce((s, r) => s + cents(r.amount), 0)).toBe(cents(payout.amount));
      expect(await rowsOf(merchant.apiKey, `&payout_id=${payout.id}`)).toEqual(rows);

      const [transfer, ...more] = await providerTransfers({ correlationId: payout.id });
      expect(more).toEqual([]);
      expect(transfer).toMatchObject({ _id: payout.transfer_id, amountCents: cents(payout.amount), status: "pending" });

      const settled = await simulate(merchant.apiKey, payout.id, { status: "completed" });
      expect(settled.statusCode, settled.body).toBe(200);
      expect(settled.json()).toMatchObject({ payout_id: payout.id, status: "completed" });
      await eventually(async () => expect((await json(`/api/merchants/payouts/${payout.id}`, merchant.apiKey)).status).toBe("paid"));
      await eventually(async () =>
        expect(payoutEvents.filter((e) => e.aggregate.id === payout.id).map((e) => e.type).sort()).toEqual(["payout.created", "payout.paid"]),
      );
    });

    it("takes a return after the payout from the balance, and the next day's payout is that much smaller", async () => {
      expect((await refundClient(stack).simulate(merchant.apiKey, paid[0]!.uuid, "failed")).statusCode).toBe(200);
      await eventually(async () => expect(await available(merchant.apiKey)).toBe("-107.50"));
      // A negative balance is carried over: no payout for it.
      days = 1;
      expect(await runOk(merchant.apiKey)).toBeNull();
      await payment(stack, merchant.apiKey);
      await payment(stack, merchant.apiKey);
      await eventually(async () => expect(await available(merchant.apiKey)).toBe("107.50"));
      const next = (await runOk(merchant.apiKey))!;
      expect(next.id).not.toBe(payouts[0]!.id);
      expect(next.amount).toBe("107.50");
      payouts.push(next);
      const rows: Row[] = (await json(`/api/merchants/payouts/${next.id}`, merchant.apiKey)).balance_transactions.data;
      expect(rows.map((r) => r.type).sort()).toEqual(["debit", "debit", "payout", "return"]);
      expect(rows.find((r) => r.type === "return")!.source).toBe(paid[0]!.uuid);
    });

    it("returns a failed payout's amount to the balance, and the next payout carries it", async () => {
      const failed = payouts[1]!;
      const reply = await simulate(merchant.apiKey, failed.id, { status: "failed", failure_code: "R02" });
      expect(reply.statusCode, reply.body).toBe(200);
      await eventually(async () => expect(await json(`/api/merchants/payouts/${failed.id}`, merchant.apiKey)).toMatchObject({ status: "failed", failure_code: "R02" }));
      await eventually(async () => expect(await available(merchant.apiKey)).toBe("107.50"));
      const back = (await rowsOf(merchant.apiKey, "&type=payout")).filter((r) => r.source === failed.id && !r.amount.startsWith("-"));
      expect(back).toEqual([expect.objectContaining({ amount: "107.50", payout_id: null })]);
      // Events reach this subscriber through the outbox, a moment after the status they tell.
      await eventually(async () =>
        expect(payoutEvents.filter((e) => e.aggregate.id === failed.id).map((e) => e.type).sort()).toEqual(["payout.created", "payout.failed"]),
      );

      days = 2;
      const carried = (await runOk(merchant.apiKey))!;
      expect(carried.amount).toBe("107.50");
      payouts.push(carried);
      const rows: Row[] = (await json(`/api/merchants/payouts/${carried.id}`, merchant.apiKey)).balance_transactions.data;
      expect(rows.map((r) => `${r.type}:${r.amount}`).sort()).toEqual([`payout:-107.50`, `payout:107.50`]);
      expect((await simulate(merchant.apiKey, carried.id, { status: "completed" })).statusCode).toBe(200);
      await eventually(async () => expect((await json(`/api/merchants/payouts/${carried.id}`, merchant.apiKey)).status).toBe("paid"));
      const listed: Payout[] = (await json("/api/merchants/payouts", merchant.apiKey)).data;
      expect(listed.map((p) => [p.id, p.status])).toEqual([
        [carried.id, "paid"],
        [failed.id, "failed"],
        [payouts[0]!.id, "paid"],
      ]);
      const firstPage = await json("/api/merchants/payouts?limit=1", merchant.apiKey);
      expect(firstPage.has_more).toBe(true);
      expect((await json(`/api/merchants/payouts?limit=5&starting_after=${firstPage.data[0].id}`, merchant.apiKey)).data).toEqual(listed.slice(1));
    });

    it("adds up: the balance transactions, the payouts and the provider's transfers tell one story", async () => {
      const all = await rowsOf(merchant.apiKey);
      const total = all.reduce((s, r) => s + cents(r.amount), 0);
      expect(total).toBe(cents(await available(merchant.apiKey)));
      expect(total).toBe(0);
      const movements = all.filter((r) => r.type !== "payout").reduce((s, r) => s + cents(r.amount), 0);
      const paidOut = payouts.filter((p) => p.id !== payouts[1]!.id).reduce((s, p) => s + cents(p.amount), 0);
      expect(paidOut).toBe(movements);
      // The provider's account of the merchant's balance there: what arrived, less what left.
      const balanceAccount = `sandbox://merchants/${merchant.id}/balance`;
      const arrived = (await providerTransfers({ destinationFundingSource: balanceAccount })).filter((t) => t.status === "completed");
      const left = (await providerTransfers({ sourceFundingSource: balanceAccount })).filter((t) => t.status === "completed");
      const atProvider = arrived.reduce((s, t) => s + t.amountCents, 0) - left.reduce((s, t) => s + t.amountCents, 0);
      expect(atProvider).toBe(total);
      const toBank = (await providerTransfers({ destinationFundingSource: `sandbox://merchants/${merchant.id}/bank` })).filter((t) => t.status === "completed");
      expect(toBank.reduce((s, t) => s + t.amountCents, 0)).toBe(paidOut);
    });

    it("records each payout a run made and each payout and transfer simulation once, by the key from its address", async () => {
      // Settled already: the simulation moves nothing, so it records nothing.
      expect((await simulate(merchant.apiKey, payouts[0]!.id, { status: "completed" })).json()).toMatchObject({ status: "completed" });
      const byKey = (e: AuditEntry) => {
        expect(e.actor.type).toBe("api_key");
        expect(merchant.apiKey.startsWith(e.actor.id) && merchant.apiKey.length > e.actor.id.length).toBe(true);
      };
      // The last run's entry came after the same-day repeat's would have: one entry per payout made.
      const created = await eventually(async () => {
        const found = await audited(merchant.apiKey, "payout.created");
        expect(objectIds(found)).toEqual(payouts.map((p) => p.id).sort());
        return found;
      });
      for (const payout of payouts) {
        const entry = created.find((e) => e.object.id === payout.id)!;
        byKey(entry);
        expect(entry).toMatchObject({ action: "payout.created", object: { type: "payout", id: payout.id }, ip_address: MERCHANT_IP });
        // Its time is the change's, on the ledger's clock: the payout's day.
        expect(entry.created_at.slice(0, 10)).toBe(payout.day);
      }
      // Three simulations moved a transfer (the first payout settled, the second failed, the third settled); the repeat above none.
      const simulated = await eventually(async () => {
        const found = await audited(merchant.apiKey, "payout.simulated");
        expect(objectIds(found)).toEqual(payouts.map((p) => p.id).sort());
        return found;
      });
      for (const entry of simulated) {
        byKey(entry);
        expect(entry).toMatchObject({ object: { type: "payout" }, ip_address: MERCHANT_IP });
      }
      // The first payment's transfer was simulated twice, settled and then returned: both moved it.
      const ofPaid = await eventually(async () => {
        const found = (await audited(merchant.apiKey, "transaction.simulated")).filter((e) => paid.some((p) => p.uuid === e.object.id));
        expect(objectIds(found)).toEqual([paid[0]!.uuid, paid[0]!.uuid, paid[1]!.uuid, paid[2]!.uuid].sort());
        return found;
      });
      for (const entry of ofPaid) {
        byKey(entry);
        expect(entry).toMatchObject({ object: { type: "transaction" }, ip_address: "127.0.0.1" });
      }
    });

    it("payrail check finds the books in line, and reports a balance or a payout that disagrees with its rows", async () => {
      const check = async () => {
        const found: Divergence[] = [];
        const now = new Date();
        await checkBooks({ store, now, graceMs: 0, settledBefore: now.toISOString() }, (d) => void found.push(d));
        return found;
      };
      expect(await check()).toEqual([]);
      const raw = uncheckedStore(store);
      const payout = payouts[0]!;
      await raw.collection<{ _id: string; amountCents: number }>("payouts").findOneAndUpdate({ _id: payout.id }, { $inc: { amountCents: 1 } });
      await raw.collection<{ _id: string; totalCents: number }>("balances").findOneAndUpdate({ _id: merchant.id }, { $inc: { totalCents: 5 } });
      try {
        const found = await check();
        expect(found).toContainEqual({ kind: "balance_not_sum_of_rows", id: merchant.id, detail: expect.stringContaining("sum to") });
        expect(found).toContainEqual({ kind: "payout_not_sum_of_rows", id: payout.id, detail: expect.any(String) });
        expect(found).toContainEqual({ kind: "payout_rows_mismatch", id: payout.id, detail: expect.any(String) });
        expect(found).toContainEqual({ kind: "payout_transfer_amount_mismatch", id: payout.id, detail: expect.any(String) });
      } finally {
        await raw.collection<{ _id: string; amountCents: number }>("payouts").findOneAndUpdate({ _id: payout.id }, { $inc: { amountCents: -1 } });
        await raw.collection<{ _id: string; totalCents: number }>("balances").findOneAndUpdate({ _id: merchant.id }, { $inc: { totalCents: -5 } });
      }
      expect(await check()).toEqual([]);
    });

    it("answers 404 for another merchant's payout and 400 for a malformed id or cursor", async () => {
      const other = await stack.merchant("Someone else");
      const theirs = await get(`/api/merchants/payouts/${payouts[0]!.id}`, other.apiKey);
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json().error.code).toBe("payout_not_found");
      expect((await simulate(other.apiKey, payouts[0]!.id, { status: "completed" })).statusCode).toBe(404);
      expect((await get("/api/merchants/payouts/po_nope", merchant.apiKey)).statusCode).toBe(400);
      expect((await get(`/api/merchants/payouts?starting_after=${payouts[0]!.id}`, other.apiKey)).statusCode).toBe(400);
      expect(await runOk(other.apiKey)).toBeNull();
    });
  });

  describe.skipIf(!!variant.skipReason)("races and faults", () => {
    it("makes one payout per merchant and day of 20 concurrent runs", async () => {
      const merchant = await stack.merchant("Racing Runs");
      await payment(stack, merchant.apiKey);
      await eventually(async () => expect(await available(merchant.apiKey)).toBe("107.50"));
      const replies = await Promise.all(Array.from({ length: 20 }, () => run(merchant.apiKey)));
      for (const reply of replies) expect(reply.statusCode, reply.body).toBe(200);
      const ids = new Set(replies.map((r) => r.json().payout.id as string));
      expect(ids.size).toBe(1);
      const [id] = [...ids];
      expect((await json("/api/merchants/payouts", merchant.apiKey)).data.map((p: Payout) => p.id)).toEqual([id]);
      expect(await providerTransfers({ correlationId: id })).toHaveLength(1);
      expect(await available(merchant.apiKey)).toBe("0.00");
      // One write fixed its amount, so one entry; settling it afterwards records after that write's.
      expect((await simulate(merchant.apiKey, id!, { status: "completed" })).statusCode).toBe(200);
      await eventually(async () => expect(objectIds(await audited(merchant.apiKey, "payout.simulated"))).toEqual([id]));
      await eventually(async () => expect(objectIds(await audited(merchant.apiKey, "payout.created"))).toEqual([id]));
    });

    it("pays on PAYOUT_SCHEDULE, once across replicas", async () => {
      const merchant = await stack.merchant("Scheduled");
      await payment(stack, merchant.apiKey);
      await eventually(async () => expect(await available(merchant.apiKey)).toBe("107.50"));
      // Two more ledger replicas whose schedules fire every 100 ms, on the real clock.
      const transports = await Promise.all([variant.transport(), variant.transport()]);
      const replicas = await Promise.all(transports.map((transport) => ledger.start({ transport, store, logger: silentLogger(), payoutEveryMs: 100, outboxPollMs: 100 })));
      try {
        const [made] = await eventually(async () => {
          const listed: Payout[] = (await json("/api/merchants/payouts", merchant.apiKey)).data;
          expect(listed).toHaveLength(1);
          expect(listed[0]!.transfer_id).not.toBeNull();
          return listed;
        });
        expect(await providerTransfers({ correlationId: made!.id })).toHaveLength(1);
        expect(await available(merchant.apiKey)).toBe("0.00");
        // The schedule is no merchant actor: its payout has no entry, while the merchant's own
        // simulation of it, written after the payout's own write was published, has one.
        await eventually(async () => expect(payoutEvents.filter((e) => e.aggregate.id === made!.id).map((e) => e.type)).toContain("payout.created"));
        expect((await simulate(merchant.apiKey, made!.id, { status: "completed" })).statusCode).toBe(200);
        await eventually(async () => expect(objectIds(await audited(merchant.apiKey, "payout.simulated"))).toEqual([made!.id]));
        expect(await audited(merchant.apiKey, "payout.created")).toEqual([]);
      } finally {
        for (const replica of replicas) await replica.stop();
        // Their queues too: a replica left serving would answer later runs on its own clock.
        for (const transport of transports) await transport.close();
      }
    });

    it("settles a payout whose provider notice never came, on the reconciler's pass", async () => {
      const merchant = await stack.merchant("Quiet Provider");
      await payment(stack, merchant.apiKey);
      await eventually(async () => expect(await available(merchant.apiKey)).toBe("107.50"));
      const made = (await runOk(merchant.apiKey))!;
      expect(made.transfer_id).not.toBeNull();
      // The provider settles the transfer and tells nobody.
      await uncheckedStore(store).collection<SandboxTransfer>("sandbox_transfers").findOneAndUpdate({ _id: made.transfer_id! }, { $set: { status: "completed" } });
      const report = await stack.transport.call(reconcileOp, { after_ms: 0 }, { requestId: "cli", principal: { kind: "admin" } }, { timeoutMs: 20_000 });
      expect(report.changes).toContainEqual({ kind: "payout", id: made.id, from: "pending", to: "completed" });
      await eventually(async () => expect((await json(`/api/merchants/payouts/${made.id}`, merchant.apiKey)).status).toBe("paid"));
    });

    it("retries a payout whose provider call died after the provider acted, and the key makes it one transfer", async () => {
      const merchant = await stack.merchant("Lost Answers");
      await payment(stack, merchant.apiKey);
      await eventually(async () => expect(await available(merchant.apiKey)).toBe("107.50"));
      loseNextPayoutAnswer = true;
      const lost = await run(merchant.apiKey);
      expect(lost.statusCode, lost.body).toBe(502);
      expect(lost.json().error.code).toBe("provider_error");
      const [made] = (await json("/api/merchants/payouts", merchant.apiKey)).data as Payout[];
      expect(made).toMatchObject({ status: "pending", transfer_id: null, amount: "107.50" });
      expect(await providerTransfers({ correlationId: made!.id })).toHaveLength(1);
      const retried = (await runOk(merchant.apiKey))!;
      expect(retried.id).toBe(made!.id);
      const transfers = await providerTransfers({ correlationId: made!.id });
      expect(transfers.map((t) => t._id)).toEqual([retried.transfer_id]);
      expect(await available(merchant.apiKey)).toBe("0.00");
      // The payout was made by the call that answered 502: its entry, and the retry's none.
      const [entry, ...more] = await eventually(async () => {
        const found = await audited(merchant.apiKey, "payout.created");
        expect(found.length).toBeGreaterThan(0);
        return found;
      });
      expect(more).toEqual([]);
      expect(entry).toMatchObject({ object: { type: "payout", id: made!.id }, ip_address: MERCHANT_IP });
    });
  });
});
