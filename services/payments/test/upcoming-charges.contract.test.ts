import { cancelSubscriptionByTransactionOp, updateSubscriptionOp, type AnyDomainEvent, type TransactionRecord } from "@payrail/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { TRANSFER_ATTEMPTS_COLLECTION } from "../src/data-access/transfer-attempt.repository.ts";
import type { TransferAttemptRecord } from "../src/domain/transfers/transfer-attempt.entity.ts";
import { as, codeOf } from "./support/payments-harness.ts";
import { startRenewals, type RenewalsHarness, type Subscription } from "./support/renewals-harness.ts";

const variants = await infraVariants();

/** The records Subscription Details would list, oldest first. */
const oldestFirst = (records: TransactionRecord[]) => [...records].sort((a, b) => a.id - b.id);

type Upcoming = { amount: string; previous_amount: string; charge_at: string; period: number };

/**
 * Upcoming charges (docs/decisions/0009-consumer-notices.md): payments announces each renewal
 * once with `subscription.upcoming`, NOTICE_DAYS_BEFORE (3) days before it, or 10 when the
 * merchant changed its amount; the test clock announces on its way, before the charge; the
 * scheduler's replicas announce it once between them; a new amount applies from the first
 * renewal at least 10 days away.
 */
describe.each(variants)("upcoming charges over $name", (variant) => {
  let h: RenewalsHarness;
  /** The events of interest in the order the spy first got them (two replicas' relays may both publish one: delivery is at least once). */
  const seen: AnyDomainEvent[] = [];

  beforeAll(async () => {
    if (variant.skipReason) return;
    // Two replicas, each with its scheduler on payments' own clock (far from any due date until a test moves it).
    h = await startRenewals(variant, { startAt: "2027-01-31T10:00:00.000Z", replicas: 2, pollMs: 25 });
    const spy = await variant.transport();
    await spy.subscribe("upcoming-spy", ["subscription.upcoming", "subscription.updated", "transaction.created"], async (event) => {
      if (!seen.some((e) => e.id === event.id)) seen.push(event);
    });
  });
  afterAll(() => variant.cleanup());

  const attempt = async (s: Subscription) => (await h.store.collection<TransferAttemptRecord>(TRANSFER_ATTEMPTS_COLLECTION).findOne({ _id: s.checkoutId }))!;
  const upcomingOf = (s: Subscription) => seen.filter((e) => e.type === "subscription.upcoming" && e.aggregate.id === s.checkoutId).map((e) => (e.data.object as Record<string, unknown>)["upcoming_charge"] as Upcoming);
  const indexOf = (pred: (e: AnyDomainEvent) => boolean) => seen.findIndex(pred);
  const createdOf = (uuid: string) => indexOf((e) => e.type === "transaction.created" && e.data.object.transaction_uuid === uuid);

  describe.skipIf(!!variant.skipReason)("announcing renewals", () => {
    it("announces a renewal once, 3 days before it, on the test clock's way and before its charge", async () => {
      h.clock.ms = Date.parse("2027-01-31T10:00:00.000Z");
      const s = await h.subscription();
      const due = "2027-02-28T10:00:00.000Z";
      await eventually(async () => expect((await attempt(s)).nextChargeAt).toBe(due));
      await h.advance(s, "2027-02-25T09:59:00.000Z");
      expect((await attempt(s)).announcedChargeAt ?? null).toBeNull();
      await h.advance(s, "2027-02-25T10:00:00.000Z");
      expect(await attempt(s)).toMatchObject({ announcedChargeAt: due, noticeDueAt: null });
      await eventually(async () => expect(upcomingOf(s)).toEqual([{ amount: "107.50", previous_amount: "107.50", currency: "USD", charge_at: due, period: 1 }]));
      const [, renewal] = oldestFirst(await h.advance(s, due));
      expect(renewal!.transaction_date_time).toBe(due);
      await eventually(async () => expect(createdOf(renewal!.transaction_uuid)).toBeGreaterThan(-1));
      // Written before the charge, so published before it: the notice precedes the debit.
      expect(indexOf((e) => e.type === "subscription.upcoming" && e.aggregate.id === s.checkoutId)).toBeLessThan(createdOf(renewal!.transaction_uuid));
      await h.advance(s, due);
      expect(upcomingOf(s)).toHaveLength(1);
    });

    it("charges a new amount from the first renewal at least 10 days away, announced 10 days before with the previous amount", async () => {
      h.clock.ms = Date.parse("2027-01-31T10:00:00.000Z");
      const s = await h.subscription();
      await eventually(async () => expect((await attempt(s)).nextChargeAt).toBe("2027-02-28T10:00:00.000Z"));
      // 8 days before the first renewal: too close, so the new amount starts with the second.
      await h.advance(s, "2027-02-20T10:00:00.000Z");
      const changed = await h.client.call(updateSubscriptionOp, { checkout_id: s.checkoutId, amount: "120.00" }, as(h.merchant));
      expect(changed).toEqual({ checkout_id: s.checkoutId, amount: "120.00", previous_amount: "107.50", amount_effective_at: "2027-03-31T10:00:00.000Z", subscription_status: "active" });
      await eventually(async () => expect(seen.some((e) => e.type === "subscription.updated" && e.aggregate.id === s.checkoutId)).toBe(true));
      const first = oldestFirst(await h.advance(s, "2027-02-28T10:00:00.000Z"))[1]!;
      expect(first.amount).toBe(107.5);
      await h.simulate(first.transaction_uuid, "completed");
      await eventually(async () => expect((await attempt(s)).nextChargeAt).toBe("2027-03-31T10:00:00.000Z"));
      // 11 days before: a changed amount is not announced yet; 10 days before, it is.
      await h.advance(s, "2027-03-20T10:00:00.000Z");
      expect(upcomingOf(s)).toHaveLength(1);
      await h.advance(s, "2027-03-21T10:00:00.000Z");
      await eventually(async () => expect(upcomingOf(s)[1]).toEqual({ amount: "120.00", previous_amount: "107.50", currency: "USD", charge_at: "2027-03-31T10:00:00.000Z", period: 2 }));
      const second = oldestFirst(await h.advance(s, "2027-03-31T10:00:00.000Z"))[2]!;
      expect(second.amount).toBe(120);
      await h.simulate(second.transaction_uuid, "completed");
      // The third renewal is unchanged again: 3 days' notice, one amount.
      await eventually(async () => expect((await attempt(s)).nextChargeAt).toBe("2027-04-30T10:00:00.000Z"));
      await h.advance(s, "2027-04-26T10:00:00.000Z");
      expect(upcomingOf(s)).toHaveLength(2);
      await h.advance(s, "2027-04-27T10:00:00.000Z");
      await eventually(async () => expect(upcomingOf(s)[2]).toMatchObject({ amount: "120.00", previous_amount: "120.00" }));
    });

    it("lets a second change starting at the same renewal replace a pending one, and refuses one that would start after it", async () => {
      h.clock.ms = Date.parse("2027-01-31T10:00:00.000Z");
      const s = await h.subscription();
      const change = (amount: string) => h.client.call(updateSubscriptionOp, { checkout_id: s.checkoutId, amount }, as(h.merchant));
      await eventually(async () => expect((await attempt(s)).nextChargeAt).toBe("2027-02-28T10:00:00.000Z"));
      await h.advance(s, "2027-02-20T10:00:00.000Z");
      await change("120.00");
      expect(await change("130.00")).toMatchObject({ amount: "130.00", previous_amount: "107.50", amount_effective_at: "2027-03-31T10:00:00.000Z" });
      const first = oldestFirst(await h.advance(s, "2027-02-28T10:00:00.000Z"))[1]!;
      expect(first.amount).toBe(107.5);
      await h.simulate(first.transaction_uuid, "completed");
      await eventually(async () => expect((await attempt(s)).nextChargeAt).toBe("2027-03-31T10:00:00.000Z"));
      // 6 days before the changed renewal: a new change would start a period later, and that
      // renewal would then read 130.00 as its "previous" amount, unannounced.
      await h.advance(s, "2027-03-25T10:00:00.000Z");
      expect(await codeOf(change("140.00"))).toBe("amount_change_pending");
      expect((await attempt(s)).amountChange).toMatchObject({ amountCents: 13_000, previousAmountCents: 10_750, fromPeriod: 2 });
    });

    it("lets the scheduler's two replicas announce each renewal once between them, when payments' clock reaches its notice", async () => {
      h.clock.ms = Date.parse("2027-01-31T10:00:00.000Z");
      const subs = [await h.subscription(), await h.subscription()];
      for (const s of subs) await eventually(async () => expect((await attempt(s)).nextChargeAt).toBe("2027-02-28T10:00:00.000Z"));
      const versions = await Promise.all(subs.map(async (s) => (await attempt(s)).subscriptionVersion ?? 0));
      h.clock.ms = Date.parse("2027-02-26T10:00:00.000Z");
      try {
        for (const s of subs) await eventually(async () => expect(upcomingOf(s)).toHaveLength(1));
        for (const [i, s] of subs.entries()) {
          expect(await attempt(s)).toMatchObject({ announcedChargeAt: "2027-02-28T10:00:00.000Z", noticeDueAt: null, subscriptionVersion: versions[i]! + 1 });
          expect(upcomingOf(s)).toHaveLength(1);
        }
      } finally {
        h.clock.ms = Date.parse("2027-01-31T10:00:00.000Z");
      }
    });

    it("refuses another merchant's subscription, a one-off payment, a cancelled subscription and an amount of 0", async () => {
      h.clock.ms = Date.parse("2027-01-31T10:00:00.000Z");
      const s = await h.subscription();
      const other = { ...h.merchant, merchantId: `mer_${"0".repeat(32)}` };
      expect(await codeOf(h.client.call(updateSubscriptionOp, { checkout_id: s.checkoutId, amount: "5.00" }, as(other)))).toBe("checkout_not_found");
      expect(await codeOf(h.client.call(updateSubscriptionOp, { checkout_id: s.checkoutId, amount: "0" }, as(h.merchant)))).toBe("amount_invalid");
      const oneOff = await h.subscription({ is_subscription: false, plan_type: undefined });
      expect(await codeOf(h.client.call(updateSubscriptionOp, { checkout_id: oneOff.checkoutId, amount: "5.00" }, as(h.merchant)))).toBe("not_a_subscription");
      await h.client.call(cancelSubscriptionByTransactionOp, { subscription_transaction_uuid: s.uuid }, as(s.user));
      expect(await codeOf(h.client.call(updateSubscriptionOp, { checkout_id: s.checkoutId, amount: "5.00" }, as(h.merchant)))).toBe("subscription_cancelled");
    });
  });
});
