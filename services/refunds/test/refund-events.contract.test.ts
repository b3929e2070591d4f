import {
  decideRefundOp,
  initiateRefundTransferOp,
  requestRefundOp,
  simulateRefundTransferOp,
  type AnyDomainEvent,
  type MerchantPrincipal,
} from "@payrail/contracts";
import type { OutboxFields } from "@payrail/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { as, codeOf, startRefunds, type RefundsHarness } from "./support/refunds-harness.ts";
import { until } from "../../../test/support/until.ts";

const variants = await infraVariants();

describe.each(variants)("refund events over $name", (variant) => {
  let h: RefundsHarness;
  let merchant: MerchantPrincipal;
  /** What an outside subscriber received, by event id (delivery is at least once: ids dedupe). */
  const received = new Map<string, AnyDomainEvent>();

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startRefunds(variant);
    merchant = await h.merchant();
    const observer = await variant.transport();
    await observer.subscribe("test-observer", ["refund.*"], async (event) => {
      received.set(event.id, event);
    });
  });
  afterAll(async () => {
    await h?.stopRefunds();
    await variant.cleanup();
  });

  /** The events received about one refund, oldest version first. */
  const eventsOf = (refundId: string) =>
    [...received.values()].filter((e) => e.aggregate.id === refundId).sort((a, b) => a.aggregate.version - b.aggregate.version);
  const stored = (refundId: string) => h.store.collection<{ _id: string; version: number } & OutboxFields>("refunds").findOne({ _id: refundId });
  /** Until the relay published and removed every event the refund's document carried. */
  const outboxDrained = (refundId: string) => until(`${refundId}'s outbox to drain`, async () => (await stored(refundId))?.outboxPending === false);

  async function requested(decision?: "Approved") {
    const t = await h.transaction(merchant, "completed");
    const { refund } = await h.client.call(requestRefundOp, { transaction_uuid: t.uuid }, as(t.user));
    if (decision) await h.client.call(decideRefundOp, { id: refund.id, status: decision }, as(merchant));
    return refund;
  }
  const initiate = (id: string) => h.client.call(initiateRefundTransferOp, { id, status: "approved" }, as(merchant), { timeoutMs: 15_000 });

  describe.skipIf(!!variant.skipReason)("publishing", () => {
    it("publishes requested, approved, processing and completed once each, with increasing versions and the record as it became", async () => {
      const refund = await requested("Approved");
      const { refund: processing } = await initiate(refund.id);
      const completed = await h.client.call(simulateRefundTransferOp, { refund_transaction_id: processing.refund_transaction_id!, status: "completed" }, as(merchant));
      expect(completed.status).toBe("completed");

      await until("four refund events", () => eventsOf(refund.id).length >= 4);
      await outboxDrained(refund.id);
      const events = eventsOf(refund.id);
      expect(events.map((e) => e.type)).toEqual(["refund.requested", "refund.approved", "refund.processing", "refund.completed"]);
      expect(events.map((e) => e.aggregate.version)).toEqual([1, 2, 3, 4]);
      expect(events.map((e) => (e.data.object as { status?: string }).status)).toEqual(["pending", "approved", "processing", "completed"]);
      for (const event of events) {
        expect(event).toMatchObject({ aggregate: { type: "refund", id: refund.id }, livemode: false });
        // created_at is the change's time: the record's updated_at in the snapshot.
        expect(event.created_at).toBe((event.data.object as Record<string, unknown>)["updated_at"]);
      }
      expect(events[0]!.data.object).toEqual(refund);
      expect(events[3]!.data.object).toMatchObject({ refund_transaction_id: processing.refund_transaction_id, amount: 107.5 });

      const doc = await stored(refund.id);
      expect(doc).toMatchObject({ version: 4, outboxPending: false });
      expect(Object.keys(doc?._outbox ?? {})).toHaveLength(0);
    });

    it("writes one event when two decisions race: only the winning move carries one", async () => {
      const refund = await requested();
      const answers = await Promise.all([
        h.client.call(decideRefundOp, { id: refund.id, status: "Approved" }, as(merchant)),
        h.client.call(decideRefundOp, { id: refund.id, status: "Approved" }, as(merchant)),
      ]);
      expect(answers.map((a) => a.refund.status)).toEqual(["approved", "approved"]);
      expect((await stored(refund.id))?.version).toBe(2);
      await outboxDrained(refund.id);
      // A later change's event comes after any the decisions published, on the same queue.
      await initiate(refund.id);
      await until("refund.processing", () => eventsOf(refund.id).some((e) => e.type === "refund.processing"));
      expect(eventsOf(refund.id).map((e) => e.type)).toEqual(["refund.requested", "refund.approved", "refund.processing"]);
    });

    it("publishes refund.failed with the provider's reason, then processing again for the next attempt", async () => {
      const refund = await requested("Approved");
      h.refusePayouts.refunds = 1;
      expect(await codeOf(initiate(refund.id))).toBe("provider_error");
      await initiate(refund.id);
      await until("five refund events", () => eventsOf(refund.id).length >= 5);
      const events = eventsOf(refund.id);
      expect(events.map((e) => `${e.aggregate.version} ${e.type}`)).toEqual([
        "1 refund.requested",
        "2 refund.approved",
        "3 refund.processing",
        "4 refund.failed",
        "5 refund.processing",
      ]);
      expect(events[3]!.data.object).toMatchObject({ status: "failed", failure_code: expect.any(String), failure_reason: expect.any(String) });
      expect(events[4]!.data.object).toMatchObject({ status: "processing", failure_code: null });
    });
  });
});
