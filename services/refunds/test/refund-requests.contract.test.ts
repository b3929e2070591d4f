import {
  addOperatorOp,
  decideRefundOp,
  getTransactionForRefundOp,
  listRefundsOp,
  simulateRefundTransferOp,
  requestRefundOp,
  startRefundTransferOp,
  type MerchantPrincipal,
} from "@payrail/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { ORPHAN_HOLD_MS } from "../src/domain/reserve-refund-amount.ts";
import { as, codeOf, consumer, SERVICE, startRefunds, type RefundsHarness } from "./support/refunds-harness.ts";

const variants = await infraVariants();
interface Ledger {
  _id: string;
  amountCents: number;
  reservedCents: number;
  holds: Record<string, { cents: number; attempt: number; at: string }>;
}
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe.each(variants)("refund requests and decisions over $name", (variant) => {
  let h: RefundsHarness;
  let merchant: MerchantPrincipal;

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startRefunds(variant);
    merchant = await h.merchant();
  });
  afterAll(() => variant.cleanup());

  const request = (user: Parameters<typeof as>[0], uuid: string, reason?: string, amount?: number | string) =>
    h.client.call(requestRefundOp, { transaction_uuid: uuid, ...(reason ? { reason } : {}), ...(amount !== undefined ? { amount } : {}) }, as(user));
  const ledger = (uuid: string) => h.store.collection<Ledger>("refund_ledgers").findOne({ _id: uuid });
  const decide = (who: Parameters<typeof as>[0], id: string, status: string) => h.client.call(decideRefundOp, { id, status }, as(who));

  describe.skipIf(!!variant.skipReason)("operations", () => {
    it("records a pending refund of the consumer's own transaction, for its full amount by default, and lists it newest first", async () => {
      const t = await h.transaction(merchant, "completed");
      const answer = await request(t.user, t.uuid, "arrived broken");
      expect(answer).toEqual({
        message: "Refund request sent",
        refund: {
          id: expect.stringMatching(/^rfd_[0-9a-f]{32}$/),
          transaction_uuid: t.uuid,
          checkout_id: expect.any(Number),
          checkout: t.checkoutId,
          amount: 107.5,
          currency: "USD",
          status: "pending",
          reason: "arrived broken",
          refund_transaction_id: null,
          failure_code: null,
          failure_reason: null,
          over_returned_at: null,
          created_at: expect.stringMatching(ISO),
          updated_at: expect.stringMatching(ISO),
        },
      });
      const stored = await h.store.collection<{ _id: string; amountCents: number }>("refunds").findOne({ _id: answer.refund.id });
      expect(stored?.amountCents).toBe(10_750);

      // A pending transaction may be refunded too; the list is the user's own, newest first.
      const pending = await h.transaction(merchant, "pending");
      const first = await request(pending.user, pending.uuid);
      expect(first.refund.reason).toBeNull();
      const other = await h.transaction(merchant, "completed");
      await request(other.user, other.uuid);
      const list = await h.client.call(listRefundsOp, {}, as(pending.user));
      expect(list.map((r) => r.id)).toEqual([first.refund.id]);
      expect((await h.client.call(listRefundsOp, {}, as(t.user)))[0]).toEqual(answer.refund);
    });

    it("treats another consumer's transaction as unknown and refuses a failed one", async () => {
      const t = await h.transaction(merchant, "completed");
      expect(await codeOf(request(consumer(), t.uuid))).toBe("transaction_not_found");
      expect(await codeOf(request(t.user, "sc-00000000000000000000000000000000"))).toBe("transaction_not_found");
      const failed = await h.transaction(merchant, "failed");
      expect(await codeOf(request(failed.user, failed.uuid))).toBe("transaction_not_refundable");
      expect(await codeOf(request(merchant, t.uuid))).toBe("permission_denied");
    });

    it("keeps one full refund per transaction when 20 requests race, and allows a new one after a rejection", async () => {
      const t = await h.transaction(merchant, "completed");
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => request(t.user, t.uuid)));
      const won = results.filter((r) => r.status === "fulfilled");
      expect(won).toHaveLength(1);
      expect(await Promise.all(results.filter((r) => r.status === "rejected").map((r) => codeOf(Promise.reject(r.reason))))).toEqual(
        Array(19).fill("refund_exists"),
      );
      const refund = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof request>>>).value.refund;
      expect(await codeOf(request(t.user, t.uuid))).toBe("refund_exists");
      await decide(merchant, refund.id, "Rejected");
      expect(await ledger(t.uuid)).toMatchObject({ reservedCents: 0, holds: {} });
      const again = await request(t.user, t.uuid);
      expect(again.refund.id).not.toBe(refund.id);
      // An approved refund holds its amount (as would a completed one, for good).
      await decide(merchant, again.refund.id, "APPROVED");
      expect(await codeOf(request(t.user, t.uuid))).toBe("refund_exists");
    });

    it("refunds part of a transaction, several times, never more than what is left", async () => {
      const t = await h.transaction(merchant, "completed");
      const first = await request(t.user, t.uuid, "one item broke", "30.00");
      expect(first.refund).toMatchObject({ amount: 30, status: "pending" });
      expect((await request(t.user, t.uuid, undefined, 50)).refund.amount).toBe(50);
      expect(await codeOf(request(t.user, t.uuid, undefined, "27.51"))).toBe("amount_exceeds_refundable");
      // Without an amount: whatever is left.
      const rest = await request(t.user, t.uuid);
      expect(rest.refund.amount).toBe(27.5);
      expect(await codeOf(request(t.user, t.uuid))).toBe("refund_exists");
      expect(await codeOf(request(t.user, t.uuid, undefined, "0.01"))).toBe("amount_exceeds_refundable");
      expect(await ledger(t.uuid)).toMatchObject({ amountCents: 10_750, reservedCents: 10_750 });
      // A rejected part is refundable again.
      await decide(merchant, first.refund.id, "Rejected");
      expect((await request(t.user, t.uuid)).refund.amount).toBe(30);
      for (const bad of [0, "0.00", -1, "1.234", "abc", 1e21]) {
        expect(await codeOf(request(t.user, t.uuid, undefined, bad))).toBe("amount_invalid");
      }
    });

    it("never holds more than the transaction's amount when 50 requests race for overlapping amounts", async () => {
      const t = await h.transaction(merchant, "completed");
      const amounts = Array.from({ length: 50 }, (_, i) => [5, 12.5, 20, 33.33, 7.25][i % 5]!);
      const results = await Promise.allSettled(amounts.map((amount) => request(t.user, t.uuid, undefined, amount)));
      const accepted = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.refund] : []));
      const refused = results.flatMap((r, i) => (r.status === "rejected" ? [{ amount: amounts[i]!, reason: r.reason as unknown }] : []));
      const acceptedCents = accepted.reduce((sum, r) => sum + Math.round(r.amount * 100), 0);
      expect(acceptedCents).toBeLessThanOrEqual(t.amountCents);
      expect(accepted.length).toBeGreaterThan(0);
      for (const r of refused) expect(await codeOf(Promise.reject(r.reason))).toBe("amount_exceeds_refundable");
      // Nothing was refused that would still have fit: what is left is less than any refused amount.
      const leftCents = t.amountCents - acceptedCents;
      for (const r of refused) expect(Math.round(r.amount * 100)).toBeGreaterThan(leftCents);
      const stored = await ledger(t.uuid);
      expect(stored?.reservedCents).toBe(acceptedCents);
      expect(Object.keys(stored?.holds ?? {}).sort()).toEqual(accepted.map((r) => r.id).sort());
    });

    it("makes a decision once: the same again answers the same, the other is a conflict", async () => {
      const t = await h.transaction(merchant, "completed");
      const { refund } = await request(t.user, t.uuid);
      const approved = await decide(merchant, refund.id, "Approved");
      expect(approved).toEqual({ message: "Refund request approved by merchant", refund: { ...refund, status: "approved", updated_at: expect.stringMatching(ISO) } });
      expect(await decide(merchant, refund.id, "approved")).toEqual(approved);
      expect(await codeOf(decide(merchant, refund.id, "Rejected"))).toBe("invalid_refund_transition");
      expect(await codeOf(decide(merchant, refund.id, "maybe"))).toBe("parameter_invalid");
    });

    it("lets exactly one of 30 racing approvals and rejections decide", async () => {
      const t = await h.transaction(merchant, "completed");
      const { refund } = await request(t.user, t.uuid);
      const calls = Array.from({ length: 30 }, (_, i) => decide(merchant, refund.id, i % 2 ? "Approved" : "rejected"));
      const results = await Promise.allSettled(calls);
      const ok = results.filter((r) => r.status === "fulfilled").map((r) => (r as PromiseFulfilledResult<{ refund: { status: string } }>).value.refund.status);
      expect(new Set(ok).size).toBe(1);
      const winner = ok[0];
      expect(ok).toHaveLength(15);
      for (const r of results.filter((x) => x.status === "rejected")) expect(await codeOf(Promise.reject(r.reason))).toBe("invalid_refund_transition");
      const stored = await h.store.collection<{ _id: string; status: string }>("refunds").findOne({ _id: refund.id });
      expect(stored?.status).toBe(winner);
    });

    it("lets the refund's merchant and its operators decide; not another merchant, the consumer or an outsider", async () => {
      const t = await h.transaction(merchant, "completed");
      const { refund } = await request(t.user, t.uuid);
      const stranger = await h.merchant();
      expect(await codeOf(decide(stranger, refund.id, "Approved"))).toBe("refund_not_found");
      expect(await codeOf(decide(merchant, "rfd_00000000000000000000000000000000", "Approved"))).toBe("refund_not_found");
      expect(await codeOf(decide(merchant, "not-a-refund-id", "Approved"))).toBe("refund_not_found");
      expect(await codeOf(decide(t.user, refund.id, "Approved"))).toBe("permission_denied");
      expect(await codeOf(decide({ kind: "anonymous" }, refund.id, "Approved"))).toBe("permission_denied");

      const operator = consumer();
      // Registered in any written form: identity stores it in E.164.
      const spaced = `${operator.phone.slice(0, 2)} ${operator.phone.slice(2, 5)} ${operator.phone.slice(5)}`;
      expect(await h.client.call(addOperatorOp, { merchant_id: merchant.merchantId, phone: spaced }, as({ kind: "admin" }))).toEqual({
        id: expect.stringMatching(/^opr_[0-9a-f]{32}$/),
        merchant_id: merchant.merchantId,
        phone: operator.phone,
      });
      await h.client.call(addOperatorOp, { merchant_id: stranger.merchantId, phone: t.user.phone }, as({ kind: "admin" }));
      expect(await codeOf(decide(t.user, refund.id, "Approved"))).toBe("permission_denied");
      expect((await decide(operator, refund.id, "Approved")).refund.status).toBe("approved");
    });

    it("gives back holds left behind by a crash", async () => {
      const ledgers = h.store.collection<Ledger>("refund_ledgers");
      const t = await h.transaction(merchant, "completed");
      const { refund: part } = await request(t.user, t.uuid, undefined, 7.5);
      // A request that died between its hold and its record: blocking only for a while.
      const dead = "rfd_11111111111111111111111111111111";
      const hold = (refundId: string) =>
        ledgers.findOneAndUpdate(
          { _id: t.uuid },
          { $set: { [`holds.${refundId}`]: { cents: 10_000, attempt: 1, at: new Date().toISOString() } }, $inc: { reservedCents: 10_000 } },
        );
      await hold(dead);
      expect(await codeOf(request(t.user, t.uuid))).toBe("refund_exists");
      const old = new Date(Date.now() - ORPHAN_HOLD_MS - 1_000).toISOString();
      await ledgers.findOneAndUpdate({ _id: t.uuid }, { $set: { [`holds.${dead}.at`]: old } });
      const { refund } = await request(t.user, t.uuid);
      expect(refund.amount).toBe(100);
      // A rejection whose release was lost: the hold of a rejected refund holds nothing.
      await decide(merchant, refund.id, "Rejected");
      await hold(refund.id);
      expect((await request(t.user, t.uuid)).refund).toMatchObject({ status: "pending", amount: 100 });
      expect(await ledger(t.uuid)).toMatchObject({ reservedCents: 10_750 });
      expect(Object.keys((await ledger(t.uuid))!.holds)).toContain(part.id);
    });

    it("answers internal operations only to services", async () => {
      const t = await h.transaction(merchant, "completed");
      // A payout's outcome is never told over RPC (payments' refund_payout.settled event says it);
      // the sandbox simulation is the merchant's.
      const simulation = { refund_transaction_id: "x", status: "completed" as const };
      expect(await codeOf(h.client.call(simulateRefundTransferOp, simulation, as(t.user)))).toBe("permission_denied");
      expect(await codeOf(h.client.call(simulateRefundTransferOp, simulation, as(merchant)))).toBe("transaction_not_found");
      const start = { refund_id: "rfd_00000000000000000000000000000000", attempt: 1, transaction_uuid: t.uuid, amount_cents: 1, currency: "USD" };
      expect(await codeOf(h.client.call(startRefundTransferOp, start, as(merchant)))).toBe("permission_denied");
      expect(await codeOf(h.client.call(getTransactionForRefundOp, { transaction_uuid: t.uuid }, as(merchant)))).toBe("permission_denied");
      expect((await h.client.call(getTransactionForRefundOp, { transaction_uuid: t.uuid }, as(SERVICE))).amount_cents).toBe(10_750);
    });
  });
});
