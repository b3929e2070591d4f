import { uncheckedStore } from "@payrail/store/testing";
import { silentLogger } from "@payrail/runtime";
import { createEmbeddedStore, type Store } from "@payrail/store";
import { beforeAll, describe, expect, it } from "vitest";
import { checkConsistency } from "../bin/check/consistency-check.ts";
import { payment, refundClient, requested } from "../services/gateway/test/support/refund-flow.ts";
import { withWebhooksStack } from "../services/gateway/test/support/webhooks-stack.ts";
import { eventually } from "./support/eventually.ts";
import { infraVariants } from "./support/infra.ts";

const variants = await infraVariants();

/**
 * `payrail check` (issue 19 item 5): clean after payments, a refund and a return have gone
 * through every service; each kind of divergence written into the store is reported.
 */
describe.each(variants)("payrail check over $name", (variant) => {
  const world = withWebhooksStack(variant);
  let store: Store;
  let merchant: { id: string; apiKey: string };
  let paid: { checkoutId: string; uuid: string };
  let refundId: string;
  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    merchant = await world.stack.merchant("Checked");
    const headers = { "api-key": merchant.apiKey };
    const refunds = refundClient(world.stack);
    paid = await payment(world.stack, merchant.apiKey, "completed");
    const returned = await payment(world.stack, merchant.apiKey, "completed");
    await refunds.simulate(merchant.apiKey, returned.uuid, "failed");
    await payment(world.stack, merchant.apiKey, "pending");
    const refund = await requested(world.stack, paid as never);
    refundId = refund.id;
    await refunds.decide(headers, refund.id, "Approved");
    const started = (await refunds.initiate(headers, refund.id)).json().refund;
    await refunds.simulate(merchant.apiKey, started.refund_transaction_id, "completed");
  });
  const check = () => checkConsistency(store, { graceMs: 0 });
  const raw = () => uncheckedStore(store);

  describe.skipIf(!!variant.skipReason)("divergences", () => {
    it("finds none once every service has followed", async () => {
      await eventually(async () => expect(await check()).toEqual([]));
    });

    it("reports a checkout that did not follow its transaction, and a checkout refund that disagrees with payments", async () => {
      const checkouts = raw().collection<{ _id: string; status: string; refundedCents?: Record<string, number> }>("checkouts");
      const before = (await checkouts.findOne({ _id: paid.checkoutId }))!;
      await checkouts.findOneAndUpdate({ _id: paid.checkoutId }, { $set: { status: "transfer_pending", refundedCents: { [paid.uuid]: 1 } } });
      try {
        const found = await check();
        expect(found).toContainEqual({ kind: "checkout_not_following_transaction", id: paid.checkoutId, detail: expect.stringContaining("is completed, the checkout is transfer_pending") });
        expect(found).toContainEqual({ kind: "checkout_refunded_mismatch", id: paid.checkoutId, detail: expect.any(String) });
      } finally {
        await checkouts.findOneAndUpdate({ _id: paid.checkoutId }, { $set: { status: before.status, refundedCents: before.refundedCents } });
      }
      expect(await check()).toEqual([]);
    });

    it("reports a refund completed without a completed payout, and amount_refunded that payouts do not add up to", async () => {
      const payouts = raw().collection<{ _id: string; status: string }>("refund_transfers");
      await payouts.findOneAndUpdate({ _id: refundId }, { $set: { status: "pending" } });
      try {
        const found = await check();
        expect(found).toContainEqual({ kind: "refund_completed_without_payout", id: refundId, detail: "refund completed, its payout is pending" });
        expect(found).toContainEqual({ kind: "amount_refunded_mismatch", id: paid.uuid, detail: expect.any(String) });
      } finally {
        await payouts.findOneAndUpdate({ _id: refundId }, { $set: { status: "completed" } });
      }
    });

    it("reports a returned payment's completed refund left unmarked, and lists a marked one for attention", async () => {
      const transactions = raw().collection<{ _id: string; transaction_status: string }>("transactions");
      const refunds = raw().collection<{ _id: string; overReturnedAt?: string | null }>("refunds");
      await transactions.findOneAndUpdate({ _id: paid.uuid }, { $set: { transaction_status: "returned" } });
      try {
        expect(await check()).toContainEqual({ kind: "refund_over_return_not_marked", id: refundId, detail: expect.stringContaining(paid.uuid) });
        await refunds.findOneAndUpdate({ _id: refundId }, { $set: { overReturnedAt: new Date().toISOString() } });
        const found = await check();
        expect(found.filter((d) => d.kind === "refund_over_return_not_marked")).toEqual([]);
        expect(found).toContainEqual({ kind: "refund_over_returned", id: refundId, detail: expect.stringContaining("got it twice"), attention: true });
      } finally {
        await transactions.findOneAndUpdate({ _id: paid.uuid }, { $set: { transaction_status: "completed" } });
        await refunds.findOneAndUpdate({ _id: refundId }, { $set: { overReturnedAt: null } });
      }
      expect(await check()).toEqual([]);
    });

    it("reports an event its relay could never publish, one missing from the events API, and a notice still waiting for its record", async () => {
      const transactions = raw().collection<{ _id: string; outboxPending?: boolean; _outbox?: Record<string, unknown> }>("transactions");
      const old = new Date(Date.now() - 120_000).toISOString();
      // Not an event of the catalogue: the relay dead-letters it (a poison event) instead of publishing it.
      await transactions.findOneAndUpdate({ _id: paid.uuid }, { $set: { outboxPending: true, outboxAt: old, "_outbox.evt_stuck": { id: "evt_stuck", type: "transaction.completed", created_at: old } } });
      const events = raw().collection<{ _id: string; type: string; body: string }>("webhook_events");
      const completed = (await events.find({}, { sort: { _id: 1 }, limit: 1_000 })).find((e) => e.type === "transaction.completed" && e.body.includes(paid.uuid))!;
      await events.deleteOne({ _id: completed._id });
      const notices = raw().collection<{ _id: string; transferId: string; receivedAt: string }>("transfer_notices");
      await notices.insertOne({ _id: "notice-1", transferId: "t-unknown", receivedAt: old });
      const letters = raw().collection<{ _id: string; eventId: string | null }>("event_dead_letters");
      try {
        const found = await eventually(async () => {
          const found = await check();
          expect(found).toContainEqual({ kind: "event_dead_lettered", id: "evt_stuck", detail: expect.stringContaining("outbox:") });
          return found;
        });
        expect(found).toContainEqual({ kind: "event_missing", id: paid.uuid, detail: `no transaction.completed event for ${paid.uuid} in the events API` });
        expect(found).toContainEqual({ kind: "notice_without_record", id: "notice-1", detail: expect.stringContaining("t-unknown") });
      } finally {
        await events.insertOne(completed);
        await notices.deleteOne({ _id: "notice-1" });
        for (const letter of await letters.find({ eventId: "evt_stuck" }, { limit: 10 })) await letters.deleteOne({ _id: letter._id });
      }
      expect(await check()).toEqual([]);
    });
  });
});

describe("payrail check on outboxes no relay empties", () => {
  it("reports an event left in an outbox for over a minute", async () => {
    const store = createEmbeddedStore({ logger: silentLogger() });
    try {
      const old = new Date(Date.now() - 120_000).toISOString();
      await store.collection("refunds").insertOne({ _id: "rfd_1", status: "pending", updatedAt: new Date().toISOString(), outboxPending: true, _outbox: { evt_1: { id: "evt_1", type: "refund.requested", created_at: old } } } as never);
      expect(await checkConsistency(store)).toContainEqual({ kind: "event_not_published", id: "evt_1", detail: expect.stringContaining("refunds/rfd_1") });
    } finally {
      await store.close();
    }
  });
});
