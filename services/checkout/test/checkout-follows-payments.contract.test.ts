import { AppError, createCheckoutOp, defineOperation, getCheckoutOp, getCheckoutSummaryOp, type DomainEvent } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { silentLogger } from "@payrail/runtime";
import { createEventDeadLetters, type Store } from "@payrail/store";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { merchantPrincipal, sampleCheckout } from "../../../test/support/fixtures.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { paymentMethodSaved, refundPayoutSettled, subscriptionCancelled, transactionEvent, transactionRecord } from "../../../test/support/payment-events.ts";
import { start } from "../src/index.ts";

const variants = await infraVariants();

/**
 * The checkout learns of payments' changes only from payments' events (issue 9): this suite
 * plays payments' part by publishing them, and waits on the checkout's state (no fixed sleeps).
 */
describe.each(variants)("checkout follows payments' events over $name", (variant) => {
  let client: Transport;
  let served: Transport;
  let store: Store;
  const merchant = merchantPrincipal();
  const as = () => ({ requestId: "req_test", principal: merchant });

  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    // A short retry delay: an event that arrived before the one it depends on is tried again soon.
    served = await variant.transport();
    await served.useEventStores({ deadLetters: await createEventDeadLetters(store) });
    await start({ transport: served, store, logger: silentLogger(), outboxPollMs: 100, subscribe: { retry: { firstDelayMs: 100, maxDelayMs: 100 } } });
    client = await variant.transport();
  });
  afterAll(() => variant.cleanup());

  const newCheckout = async (overrides: Record<string, unknown> = {}) => {
    const { id } = await client.call(createCheckoutOp, { checkout: sampleCheckout(overrides) as never }, as());
    const { number } = await client.call(getCheckoutSummaryOp, { checkout_id: id }, as());
    return { id, number };
  };
  const view = (id: string) => client.call(getCheckoutOp, { checkout_id: id }, as());
  const publish = (...events: DomainEvent[]) => Promise.all(events.map((e) => client.publish(e)));
  const waitFor = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 15_000, interval: 25 });
  /** Events of `type` the checkout has handled so far, repeats included. */
  const handled = (type: string) => served.stats().events.consumed[type] ?? 0;
  /** Publishes the events and waits until the checkout has handled each of them (repeats included). */
  const publishHandled = async (...events: DomainEvent[]) => {
    const types = [...new Set(events.map((e) => e.type))];
    const before = new Map(types.map((type) => [type, handled(type)]));
    await publish(...events);
    for (const type of types) {
      const count = events.filter((e) => e.type === type).length;
      await waitFor(async () => expect(handled(type)).toBeGreaterThanOrEqual(before.get(type)! + count));
    }
  };

  describe.skipIf(!!variant.skipReason)("subscriber", () => {
    it("dead-letters at once, without retrying, a transaction event for a checkout it never had", async () => {
      const unknown = transactionEvent(transactionRecord(987_654_321, "completed"), merchant.merchantId);
      const before = handled(unknown.type);
      await publish(unknown);
      const letters = await createEventDeadLetters(store);
      await waitFor(async () => expect(await letters.list({ service: "checkout", eventId: unknown.id })).toHaveLength(1));
      const [letter] = await letters.list({ service: "checkout", eventId: unknown.id });
      expect(letter).toMatchObject({ type: "transaction.completed", attempts: 1, reason: expect.stringContaining("no checkout numbered 987654321") });
      expect(handled(unknown.type)).toBe(before);
    });

    it("follows a payment from saved bank account to paid, refunds included, each event applied once", async () => {
      const { id, number } = await newCheckout();
      const saved = paymentMethodSaved(id, merchant.merchantId);
      await publish(saved, saved);
      await waitFor(async () => expect((await view(id)).status).toBe("payment_method_saved"));

      const pending = transactionRecord(number, "pending");
      await publish(transactionEvent(pending, merchant.merchantId));
      await waitFor(async () =>
        expect(await view(id)).toMatchObject({
          status: "transfer_pending",
          transfer: { transaction_uuid: pending.transaction_uuid, processor_transaction_id: pending.processor_transaction_id, status: "pending", amount: 107.5, currency: "USD" },
        }),
      );
      const completed = transactionEvent({ ...pending, transaction_status: "completed" }, merchant.merchantId, 2);
      await publish(completed);
      await waitFor(async () => expect(await view(id)).toMatchObject({ status: "paid", transfer: { status: "completed" } }));

      const uuid = pending.transaction_uuid;
      // Figures only grow: a smaller, late one changes nothing; the full amount makes it refunded.
      await publish(refundPayoutSettled({ checkoutId: id, transactionUuid: uuid, amountRefundedCents: 4_000, fullyRefunded: false }, merchant.merchantId));
      await waitFor(async () => expect((await view(id)).amount_refunded).toBe(40));
      const full = refundPayoutSettled({ checkoutId: id, transactionUuid: uuid, amountRefundedCents: 10_750, fullyRefunded: true }, merchant.merchantId);
      await publish(full, refundPayoutSettled({ checkoutId: id, transactionUuid: uuid, amountRefundedCents: 1_000, fullyRefunded: false }, merchant.merchantId));
      await waitFor(async () => expect(await view(id)).toMatchObject({ status: "refunded", amount_refunded: 107.5 }));
      // A failed payout sends nothing back, and a late transfer report never moves it back.
      await publishHandled(
        refundPayoutSettled({ checkoutId: id, transactionUuid: uuid, status: "failed", amountRefundedCents: 0, fullyRefunded: false }, merchant.merchantId),
        transactionEvent({ ...pending, transaction_status: "failed" }, merchant.merchantId, 5),
        full,
      );
      expect(await view(id)).toMatchObject({ status: "refunded", amount_refunded: 107.5 });
    });

    it("lands events that overtook each other: completed before created, the saved bank account last", async () => {
      const { id, number } = await newCheckout();
      const pending = transactionRecord(number, "pending");
      await publish(transactionEvent({ ...pending, transaction_status: "completed" }, merchant.merchantId, 2));
      await waitFor(async () => expect(await view(id)).toMatchObject({ status: "paid", transfer: { transaction_uuid: pending.transaction_uuid, status: "completed" } }));
      await publishHandled(transactionEvent(pending, merchant.merchantId), paymentMethodSaved(id, merchant.merchantId));
      expect((await view(id)).status).toBe("paid");
    });

    it("fails the checkout on transaction.failed, and never pays it afterwards", async () => {
      const { id, number } = await newCheckout();
      const pending = transactionRecord(number, "pending");
      await publish(paymentMethodSaved(id, merchant.merchantId), transactionEvent(pending, merchant.merchantId));
      await waitFor(async () => expect((await view(id)).status).toBe("transfer_pending"));
      await publish(transactionEvent({ ...pending, transaction_status: "failed" }, merchant.merchantId, 2));
      await waitFor(async () => expect(await view(id)).toMatchObject({ status: "failed", transfer: { status: "failed" } }));
      await publishHandled(transactionEvent({ ...pending, transaction_status: "completed" }, merchant.merchantId, 3));
      expect((await view(id)).status).toBe("failed");
    });

    it("cancels a subscription once its first charge is recorded, even when the cancellation came first", async () => {
      const { id, number } = await newCheckout({ is_subscription: true, plan_type: "monthly" });
      const pending = transactionRecord(number, "pending");
      const cancelled = subscriptionCancelled(id, merchant.merchantId, pending.transaction_uuid);
      await publish(cancelled);
      // Not started yet: the cancellation waits (retried) for transaction.created.
      await publish(paymentMethodSaved(id, merchant.merchantId), transactionEvent(pending, merchant.merchantId));
      await waitFor(async () => expect(await view(id)).toMatchObject({ status: "transfer_pending", subscription_status: "cancelled" }));
      await publishHandled(cancelled);
      expect((await view(id)).subscription_status).toBe("cancelled");
    });

    it("offers none of payments' old call-backs over RPC", async () => {
      const { id } = await newCheckout();
      const gone = defineOperation("checkout.markPaymentMethodSaved", z.object({ checkout_id: z.string() }), z.unknown());
      const err = await client.call(gone, { checkout_id: id }, { requestId: "r", principal: { kind: "service", service: "payments" } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((await view(id)).status).toBe("open");
    });
  });
});
