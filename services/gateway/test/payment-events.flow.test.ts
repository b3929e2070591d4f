import {
  cancelSubscriptionByTransactionOp,
  decideRefundOp,
  getCheckoutOp,
  initiateRefundTransferOp,
  listTransactionsOp,
  requestRefundOp,
  simulateRefundTransferOp,
  type AnyDomainEvent,
  type MerchantPrincipal,
} from "@payrail/contracts";
import type { OutboxFields } from "@payrail/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { as, startRefunds, type RefundsHarness } from "../../refunds/test/support/refunds-harness.ts";

const variants = await infraVariants();

/**
 * Payments' side of the domain events (issue 9): the whole payment and refund flows, driven
 * through the real services, publish each of payments' events once, with versions in the order
 * of the changes, and move the checkout and the refund only through them.
 */
describe.each(variants)("payments' events over $name", (variant) => {
  let h: RefundsHarness;
  let merchant: MerchantPrincipal;
  const received = new Map<string, AnyDomainEvent>();

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startRefunds(variant);
    merchant = await h.merchant();
    const observer = await variant.transport();
    await observer.subscribe("test-payments-observer", ["transaction.*", "subscription.*", "payment_method.saved", "refund_payout.settled"], async (event) => {
      received.set(event.id, event);
    });
  });
  afterAll(() => variant.cleanup());

  const eventsAbout = (id: string) => [...received.values()].filter((e) => e.aggregate.id === id).sort((a, b) => a.aggregate.version - b.aggregate.version || a.type.localeCompare(b.type));
  const drained = (collection: string, id: string) =>
    eventually(async () => expect((await h.store.collection<{ _id: string } & OutboxFields>(collection).findOne({ _id: id }))?.outboxPending).toBe(false));
  const checkout = (id: string) => h.client.call(getCheckoutOp, { checkout_id: id }, as(merchant));

  describe.skipIf(!!variant.skipReason)("publishing", () => {
    it("publishes payment_method.saved, transaction.created and .completed once each, and the checkout follows them", async () => {
      const t = await h.transaction(merchant, "completed");
      await eventually(async () => expect(eventsAbout(t.uuid).map((e) => e.type)).toEqual(["transaction.created", "transaction.completed"]));
      await drained("transactions", t.uuid);
      await drained("payment_methods", t.checkoutId);
      const [created, completed] = eventsAbout(t.uuid);
      expect([created!.aggregate.version, completed!.aggregate.version]).toEqual([1, 2]);
      const [record] = (await h.client.call(listTransactionsOp, { limit: 100 }, as(t.user))).filter((r) => r.transaction_uuid === t.uuid);
      expect(completed!.data.object).toEqual(record);
      expect(created!.data.object).toMatchObject({ transaction_uuid: t.uuid, transaction_status: "pending" });
      for (const event of [created!, completed!]) expect(event).toMatchObject({ merchant_id: merchant.merchantId, livemode: false, aggregate: { type: "transaction" } });
      expect(eventsAbout(t.checkoutId).map((e) => e.type)).toEqual(["payment_method.saved"]);
      await eventually(async () => expect(await checkout(t.checkoutId)).toMatchObject({ status: "paid", transfer: { transaction_uuid: t.uuid, status: "completed" } }));
    });

    it("publishes subscription.cancelled once however often the consumer cancels", async () => {
      const t = await h.transaction(merchant, "pending", { is_subscription: true, plan_type: "monthly" });
      for (let i = 0; i < 3; i++) await h.client.call(cancelSubscriptionByTransactionOp, { subscription_transaction_uuid: t.uuid }, as(t.user));
      await eventually(async () => expect(await checkout(t.checkoutId)).toMatchObject({ subscription_status: "cancelled" }));
      await drained("transfer_attempts", t.checkoutId);
      const cancelled = eventsAbout(t.checkoutId).filter((e) => e.type === "subscription.cancelled");
      expect(cancelled).toHaveLength(1);
      expect(cancelled[0]!).toMatchObject({ aggregate: { type: "subscription", version: 1 }, data: { object: { status: "cancelled", checkout_id: t.checkoutId, transaction_uuid: t.uuid } } });
    });

    it("settles a refund payout with one refund_payout.settled that completes the refund and refunds the checkout", async () => {
      const t = await h.transaction(merchant, "completed");
      const { refund } = await h.client.call(requestRefundOp, { transaction_uuid: t.uuid }, as(t.user));
      await h.client.call(decideRefundOp, { id: refund.id, status: "Approved" }, as(merchant));
      const started = await h.client.call(initiateRefundTransferOp, { id: refund.id, status: "approved" }, as(merchant), { timeoutMs: 15_000 });
      const transferId = started.refund.refund_transaction_id!;
      for (let i = 0; i < 2; i++) {
        const answer = await h.client.call(simulateRefundTransferOp, { refund_transaction_id: transferId, status: "completed" }, as(merchant));
        expect(answer).toMatchObject({ id: refund.id, status: "completed", refund_transaction_id: transferId });
      }
      await eventually(async () => expect(await checkout(t.checkoutId)).toMatchObject({ status: "refunded", amount_refunded: 107.5 }));
      await drained("transactions", t.uuid);
      const settled = eventsAbout(t.uuid).filter((e) => e.type === "refund_payout.settled");
      expect(settled).toHaveLength(1);
      expect(settled[0]!.data.object).toEqual({
        refund_id: refund.id,
        attempt: 1,
        transfer_id: transferId,
        status: "completed",
        transaction_uuid: t.uuid,
        checkout_id: t.checkoutId,
        amount_cents: 10_750,
        amount_refunded_cents: 10_750,
        fully_refunded: true,
      });
      // The transaction's versions count every write in order: created, completed, the payout reserved, the payout settled.
      expect(eventsAbout(t.uuid).map((e) => [e.type, e.aggregate.version])).toEqual([
        ["transaction.created", 1],
        ["transaction.completed", 2],
        ["refund_payout.settled", 4],
      ]);
    });
  });
});
