import { createCheckoutOp, getCheckoutOp, getCheckoutSummaryOp, type DomainEvent } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { prefixedHexId, silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { merchantPrincipal, sampleCheckout } from "../../../test/support/fixtures.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { refundPayoutSettled, transactionEvent, transactionRecord } from "../../../test/support/payment-events.ts";
import { start } from "../src/index.ts";

const variants = await infraVariants();

/**
 * The checkout records `amount_refunded` from payments' refund_payout.settled: figures it can
 * hold against what it knows are checked (issue 21, item 2). No transaction is charged more
 * than the checkout's total, so more refunded than that is refused; a one-off checkout has one
 * payment, so a refund of another transaction is refused. A refused event changes nothing and
 * is dead-lettered at once (it can never apply), never handled.
 */
describe.each(variants)("the checkout checks refunded amounts over $name", (variant) => {
  let client: Transport;
  let served: Transport;
  let store: Store;
  const merchant = merchantPrincipal();
  const as = () => ({ requestId: "req_test", principal: merchant });

  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    served = await variant.transport();
    await start({ transport: served, store, logger: silentLogger(), outboxPollMs: 100, subscribe: { retry: { firstDelayMs: 50 } } });
    client = await variant.transport();
  });
  afterAll(() => variant.cleanup());

  const view = (id: string) => client.call(getCheckoutOp, { checkout_id: id }, as());
  const waitFor = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 15_000, interval: 25 });
  /** Refund reports the checkout has handled so far, repeats included. */
  const handledPayouts = () => served.stats().events.consumed["refund_payout.settled"] ?? 0;
  const deadPayouts = () => served.stats().events.deadLettered["refund_payout.settled"] ?? 0;

  /** A paid checkout of 107.50 (and its transaction), as payments' events make it. */
  async function paidCheckout(overrides: Record<string, unknown> = {}) {
    const { id } = await client.call(createCheckoutOp, { checkout: sampleCheckout(overrides) as never }, as());
    const { number } = await client.call(getCheckoutSummaryOp, { checkout_id: id }, as());
    const pending = transactionRecord(number, "pending");
    await client.publish(transactionEvent(pending, merchant.merchantId));
    await client.publish(transactionEvent({ ...pending, transaction_status: "completed" }, merchant.merchantId, 2));
    await waitFor(async () => expect((await view(id)).status).toBe("paid"));
    return { id, uuid: pending.transaction_uuid };
  }

  /** Publishes `event`, waits until the checkout dead-lettered it, and checks it was never applied. */
  async function refused(event: DomainEvent): Promise<void> {
    const before = deadPayouts();
    const handledBefore = handledPayouts();
    await client.publish(event);
    await waitFor(async () => expect(deadPayouts()).toBe(before + 1));
    expect(handledPayouts()).toBe(handledBefore);
  }

  describe.skipIf(!!variant.skipReason)("refund_payout.settled", () => {
    it("never records more refunded than the payment's total, nor a 'fully refunded' that is not", async () => {
      const { id, uuid } = await paidCheckout();
      await refused(refundPayoutSettled({ checkoutId: id, transactionUuid: uuid, amountRefundedCents: 10_751, fullyRefunded: true }, merchant.merchantId));
      expect(await view(id)).toMatchObject({ status: "paid", amount_refunded: 0 });

      // A 'fully refunded' flag on 40.00 of 107.50 records the 40.00 and leaves the checkout paid.
      const partial = refundPayoutSettled({ checkoutId: id, transactionUuid: uuid, amountRefundedCents: 4_000, fullyRefunded: true }, merchant.merchantId);
      const before = handledPayouts();
      await client.publish(partial);
      await waitFor(async () => expect(handledPayouts()).toBe(before + 1));
      expect(await view(id)).toMatchObject({ status: "paid", amount_refunded: 40 });

      // The real whole refund still lands.
      const whole = refundPayoutSettled({ checkoutId: id, transactionUuid: uuid, amountRefundedCents: 10_750, fullyRefunded: true }, merchant.merchantId);
      await client.publish(whole);
      await waitFor(async () => expect(await view(id)).toMatchObject({ status: "refunded", amount_refunded: 107.5 }));
    });

    it("refuses a one-off checkout's refund of a transaction that is not its payment", async () => {
      const { id } = await paidCheckout();
      await refused(refundPayoutSettled({ checkoutId: id, transactionUuid: prefixedHexId("sc-"), amountRefundedCents: 4_000, fullyRefunded: false }, merchant.merchantId));
      expect(await view(id)).toMatchObject({ status: "paid", amount_refunded: 0 });
    });
  });
});
