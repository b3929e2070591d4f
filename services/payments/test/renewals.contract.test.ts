import { cancelSubscriptionByTransactionOp, type TransactionRecord } from "@payrail/contracts";
import { uncheckedStore } from "@payrail/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { TransferRefused } from "../src/domain/transfers/ports/transfer.port.ts";
import { as, codeOf } from "./support/payments-harness.ts";
import { startRenewals, withCreateTransfer, type RenewalsHarness, type Subscription } from "./support/renewals-harness.ts";

const variants = await infraVariants();

/** The records Subscription Details would list, oldest first. */
const oldestFirst = (records: TransactionRecord[]) => [...records].sort((a, b) => a.id - b.id);

/**
 * Renewals (issue 11) through payments' RPC operations and the checkout's events: the sandbox
 * test clock charges each period once, on the clamped dates; failures retry and recover or end
 * the subscription; a cancel stops the charges; a crash after the provider accepted a renewal
 * is finished without a second transfer.
 */
describe.each(variants)("renewals over $name", (variant) => {
  /** Transfers the provider was asked for, by idempotency key: the transfer ids it answered. */
  const answered = new Map<string, string[]>();
  const crash = { afterNextRenewalTransfer: false };
  const refuse = { nextRenewal: false };
  let h: RenewalsHarness;

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startRenewals(variant, {
      startAt: "2027-01-31T10:00:00.000Z",
      wrapTransfers: withCreateTransfer(async (input, inner) => {
        if (refuse.nextRenewal && input.idempotencyKey.includes("-p")) {
          refuse.nextRenewal = false;
          throw new TransferRefused("the transfer provider refused the request (ValidationError)", "ValidationError");
        }
        const created = await inner.createTransfer(input);
        answered.set(input.idempotencyKey, [...(answered.get(input.idempotencyKey) ?? []), created.transferId]);
        // The process "dies" after the provider accepted a renewal, before payments recorded it.
        if (crash.afterNextRenewalTransfer && input.idempotencyKey.includes("-p")) {
          crash.afterNextRenewalTransfer = false;
          throw new Error("injected crash after the provider accepted the renewal");
        }
        return created;
      }),
    });
  });
  afterAll(() => variant.cleanup());

  const renewalsOf = async (s: Subscription, to: string) => oldestFirst(await h.advance(s, to)).slice(1);

  describe.skipIf(!!variant.skipReason)("the test clock", () => {
    it("charges 12 monthly periods from a Jan 31 anchor once each, on the clamped month ends, for the full amount", async () => {
      const s = await h.subscription();
      const dates = ["2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31", "2027-06-30", "2027-07-31", "2027-08-31", "2027-09-30", "2027-10-31", "2027-11-30", "2027-12-31", "2028-01-31"];
      for (const [i, day] of dates.entries()) {
        const due = `${day}T10:00:00.000Z`;
        // Twice: the second advance to the same time finds nothing more due.
        await h.advance(s, due);
        const renewals = await renewalsOf(s, due);
        expect(renewals).toHaveLength(i + 1);
        expect(renewals[i]).toMatchObject({ transaction_date_time: due, amount: 107.5, transaction_status: "pending", checkout_id: renewals[0]!.checkout_id });
        expect(answered.get(`${s.checkoutId}-p${i + 1}`)).toEqual([renewals[i]!.processor_transaction_id]);
        await h.simulate(renewals[i]!.transaction_uuid, "completed");
      }
      const records = oldestFirst(await h.advance(s, "2028-02-28T10:00:00.000Z"));
      expect(records).toHaveLength(13);
      expect(new Set(records.map((r) => r.transaction_uuid)).size).toBe(13);
      expect(new Set(records.map((r) => r.processor_transaction_id)).size).toBe(13);
      expect(records.every((r) => r.transaction_status === "completed")).toBe(true);
      await eventually(async () =>
        expect(await h.checkout(s)).toMatchObject({
          status: "paid",
          transfer: { transaction_uuid: s.uuid },
          subscription_status: "active",
          current_period_start: "2028-01-31T10:00:00.000Z",
          current_period_end: "2028-02-29T10:00:00.000Z",
          next_charge_at: "2028-02-29T10:00:00.000Z",
        }),
      );
    });

    it("never moves the clock back", async () => {
      const s = await h.subscription();
      await h.advance(s, "2027-03-01T00:00:00.000Z");
      expect(await codeOf(h.advance(s, "2027-02-01T00:00:00.000Z"))).toBe("invalid_request");
    });
  });

  describe.skipIf(!!variant.skipReason)("failures", () => {
    it("retries an R01 return as past_due, three days after the first failure was learnt and five after the second, and a success makes it active again", async () => {
      const s = await h.subscription();
      const [first] = await renewalsOf(s, "2027-02-28T10:00:00.000Z");
      // Learnt on the 1st of March (the clock moved on before the bank's answer): retried on the 4th.
      expect(await renewalsOf(s, "2027-03-01T10:00:00.000Z")).toHaveLength(1);
      await h.simulate(first!.transaction_uuid, "failed", "R01");
      await eventually(async () => expect(await h.checkout(s)).toMatchObject({ subscription_status: "past_due", next_charge_at: "2027-03-04T10:00:00.000Z" }));
      expect(await renewalsOf(s, "2027-03-04T09:00:00.000Z")).toHaveLength(1);
      const afterRetry1 = await renewalsOf(s, "2027-03-04T10:00:00.000Z");
      expect(afterRetry1).toHaveLength(2);
      expect(answered.get(`${s.checkoutId}-p1-r1`)).toEqual([afterRetry1[1]!.processor_transaction_id]);
      await h.simulate(afterRetry1[1]!.transaction_uuid, "failed", "R09");
      await eventually(async () => expect(await h.checkout(s)).toMatchObject({ subscription_status: "past_due", next_charge_at: "2027-03-09T10:00:00.000Z" }));
      const afterRetry2 = await renewalsOf(s, "2027-03-09T10:00:00.000Z");
      expect(afterRetry2).toHaveLength(3);
      await h.simulate(afterRetry2[2]!.transaction_uuid, "completed");
      await eventually(async () =>
        expect(await h.checkout(s)).toMatchObject({ subscription_status: "active", current_period_start: "2027-02-28T10:00:00.000Z", next_charge_at: "2027-03-31T10:00:00.000Z" }),
      );
      expect((await renewalsOf(s, "2027-03-31T10:00:00.000Z")).map((r) => r.transaction_status)).toEqual(["failed", "failed", "completed", "pending"]);
    });

    it("never retries a code NACHA does not allow to be re-presented (R06)", async () => {
      const s = await h.subscription();
      const [first] = await renewalsOf(s, "2027-02-28T10:00:00.000Z");
      await h.simulate(first!.transaction_uuid, "failed", "R06");
      await eventually(async () => expect(await h.checkout(s)).toMatchObject({ subscription_status: "cancelled", next_charge_at: null }));
      expect(await renewalsOf(s, "2027-06-30T10:00:00.000Z")).toHaveLength(1);
    });

    it("stops the subscription at once on an R02 return (account closed): unpaid, its account blocked, no retry", async () => {
      const s = await h.subscription();
      const [first] = await renewalsOf(s, "2027-02-28T10:00:00.000Z");
      await h.simulate(first!.transaction_uuid, "failed", "R02");
      await eventually(async () => expect(await h.checkout(s)).toMatchObject({ subscription_status: "unpaid", next_charge_at: null }));
      expect(await renewalsOf(s, "2027-06-30T10:00:00.000Z")).toHaveLength(1);
      expect([...answered.keys()].filter((k) => k.startsWith(`${s.checkoutId}-p`))).toEqual([`${s.checkoutId}-p1`]);
    });

    it("ends the subscription when the provider refuses a renewal's transfer for good, with no record and no retry", async () => {
      const s = await h.subscription();
      refuse.nextRenewal = true;
      expect(await renewalsOf(s, "2027-02-28T10:00:00.000Z")).toHaveLength(0);
      await eventually(async () => expect(await h.checkout(s)).toMatchObject({ subscription_status: "cancelled", next_charge_at: null }));
      expect(await renewalsOf(s, "2027-12-31T10:00:00.000Z")).toHaveLength(0);
      expect([...answered.keys()].filter((k) => k.startsWith(`${s.checkoutId}-p`))).toEqual([]);
    });

    it("cancels after the second R01 retry failed: exactly two retries, then final", async () => {
      const s = await h.subscription();
      for (const to of ["2027-02-28", "2027-03-03", "2027-03-08"]) {
        const renewals = await renewalsOf(s, `${to}T10:00:00.000Z`);
        await h.simulate(renewals.at(-1)!.transaction_uuid, "failed", "R01");
      }
      await eventually(async () => expect(await h.checkout(s)).toMatchObject({ subscription_status: "cancelled" }));
      expect(await renewalsOf(s, "2027-12-31T10:00:00.000Z")).toHaveLength(3);
    });
  });

  describe.skipIf(!!variant.skipReason)("cancel and crashes", () => {
    it("charges nothing more after a cancel between periods, and a renewal in flight at the cancel still finishes", async () => {
      const s = await h.subscription();
      const [inFlight] = await renewalsOf(s, "2027-02-28T10:00:00.000Z");
      await h.client.call(cancelSubscriptionByTransactionOp, { subscription_transaction_uuid: s.uuid }, as(s.user));
      expect(await h.simulate(inFlight!.transaction_uuid, "completed")).toMatchObject({ transaction_status: "completed" });
      expect(await renewalsOf(s, "2027-12-31T10:00:00.000Z")).toHaveLength(1);
      await eventually(async () => expect(await h.checkout(s)).toMatchObject({ subscription_status: "cancelled", next_charge_at: null }));
    });

    it("finishes a renewal the provider accepted before a crash, on the next run, without a second transfer", async () => {
      const s = await h.subscription();
      crash.afterNextRenewalTransfer = true;
      expect(await codeOf(h.advance(s, "2027-02-28T10:00:00.000Z"))).not.toBe("resolved");
      // The crashed charger's lease still holds: nobody else charges the period meanwhile.
      expect(await codeOf(h.advance(s, "2027-02-28T10:00:00.000Z"))).toBe("transfer_in_progress");
      h.clock.ms += 2_000;
      const renewals = await renewalsOf(s, "2027-02-28T10:00:00.000Z");
      expect(renewals).toHaveLength(1);
      const transfers = answered.get(`${s.checkoutId}-p1`)!;
      // Asked twice with the same key, the provider answered the same transfer, which the record names.
      expect(transfers).toHaveLength(2);
      expect(new Set(transfers)).toEqual(new Set([renewals[0]!.processor_transaction_id]));
    });

    it("records a renewal the provider accepted before a crash without screening it again, though a rule would hold it now", async () => {
      // A day on (first charges on Feb 1, renewals on Mar 1): the earlier tests' debits of the
      // sandbox's bank account leave the velocity window.
      h.clock.ms += 25 * 3_600_000;
      const s = await h.subscription();
      const other = await h.subscription();
      crash.afterNextRenewalTransfer = true;
      expect(await codeOf(h.advance(s, "2027-03-02T10:00:00.000Z"))).not.toBe("resolved");
      const limit = h.config.FRAUD_ACCOUNT_DEBITS_PER_DAY;
      // From here on, a debit of a bank account debited in the last 24 hours is held for review.
      h.config.FRAUD_ACCOUNT_DEBITS_PER_DAY = 1;
      try {
        expect((await renewalsOf(other, "2027-03-02T10:00:00.000Z")).map((r) => r.transaction_status)).toEqual(["in_review"]);
        h.clock.ms += 2_000;
        const renewals = await renewalsOf(s, "2027-03-02T10:00:00.000Z");
        expect(renewals.map((r) => r.transaction_status)).toEqual(["pending"]);
        expect(await uncheckedStore(h.store).collection("fraud_reviews").countDocuments({ checkoutId: s.checkoutId })).toBe(0);
        expect(new Set(answered.get(`${s.checkoutId}-p1`))).toEqual(new Set([renewals[0]!.processor_transaction_id]));
      } finally {
        h.config.FRAUD_ACCOUNT_DEBITS_PER_DAY = limit;
      }
    });
  });
});
