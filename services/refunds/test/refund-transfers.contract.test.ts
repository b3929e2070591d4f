import { randomBytes } from "node:crypto";
import { uncheckedStore } from "@payrail/store/testing";
import {
  decideRefundOp,
  getCheckoutOp,
  initiateRefundTransferOp,
  listTransactionsOp,
  requestRefundOp,
  simulateRefundTransferOp,
  simulateTransferOp,
  startRefundTransferOp,
  type MerchantPrincipal,
  type UserPrincipal,
} from "@payrail/contracts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { as, codeOf, SERVICE, startRefunds, type RefundsHarness } from "./support/refunds-harness.ts";

const variants = await infraVariants();

interface SandboxTransfer {
  _id: string;
  idempotencyKey: string;
  sourceFundingSource: string;
  destinationFundingSource: string;
  amountCents: number;
}

describe.each(variants)("refund transfers over $name", (variant) => {
  let h: RefundsHarness;
  let merchant: MerchantPrincipal;

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startRefunds(variant);
    merchant = await h.merchant();
  });
  afterAll(() => variant.cleanup());

  /** A refund of a fresh transaction in `status`, decided `decision` by the merchant. */
  async function refund(status: "pending" | "completed" = "completed", decision: "Approved" | "Rejected" | null = "Approved") {
    const t = await h.transaction(merchant, status);
    return { ...t, refund: await ask(t, undefined, decision) };
  }
  /** The consumer asks for (part of) the transaction back, the merchant decides. */
  async function ask(t: { uuid: string; user: UserPrincipal }, amount?: string, decision: "Approved" | "Rejected" | null = "Approved") {
    const { refund } = await h.client.call(requestRefundOp, { transaction_uuid: t.uuid, ...(amount ? { amount } : {}) }, as(t.user));
    if (decision) await h.client.call(decideRefundOp, { id: refund.id, status: decision }, as(merchant));
    return refund;
  }
  /** The transaction record as its consumer sees it, and its checkout as the merchant does. */
  const record = async (t: { uuid: string; user: UserPrincipal }) =>
    (await h.client.call(listTransactionsOp, { limit: 100 }, as(t.user))).find((r) => r.transaction_uuid === t.uuid)!;
  const checkout = (t: { checkoutId: string }) => h.client.call(getCheckoutOp, { checkout_id: t.checkoutId }, as(merchant));
  /** The checkout follows payments' events asynchronously: its state is waited for, never slept on. */
  const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 15_000, interval: 25 });
  const initiate = (id: string, who: Parameters<typeof as>[0] = merchant) =>
    h.client.call(initiateRefundTransferOp, { id, status: "approved" }, as(who), { timeoutMs: 15_000 });
  const transfersFor = (refundId: string) => h.store.collection<SandboxTransfer>("sandbox_transfers").find({ idempotencyKey: refundId });
  const allTransfers = () => uncheckedStore(h.store).collection("sandbox_transfers").countDocuments({});
  const simulate = (transferId: string, status: "completed" | "failed", who: MerchantPrincipal = merchant, failureCode?: string) =>
    h.client.call(simulateRefundTransferOp, { refund_transaction_id: transferId, status, ...(failureCode ? { failure_code: failureCode } : {}) }, as(who));
  const completedPayouts = async (refundId: string) => {
    const payouts = h.store.collection<{ _id: string; status: string }>("refund_transfers");
    return (await payouts.find({ _id: { $in: [refundId, `${refundId}-2`, `${refundId}-3`] } })).filter((p) => p.status === "completed").length;
  };

  describe.skipIf(!!variant.skipReason)("operations", () => {
    it("sends the full amount back from the merchant's funding source to the consumer's, once", async () => {
      const r = await refund();
      const answer = await initiate(r.refund.id);
      expect(answer.message).toBe("Refund success");
      expect(answer.refund).toMatchObject({ id: r.refund.id, status: "processing", amount: 107.5, refund_transaction_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      const [transfer, ...more] = await transfersFor(r.refund.id);
      expect(more).toHaveLength(0);
      const original = await h.store.collection<SandboxTransfer>("sandbox_transfers").findOne({ idempotencyKey: r.uuid });
      expect(transfer).toMatchObject({
        _id: answer.refund.refund_transaction_id,
        amountCents: r.amountCents,
        sourceFundingSource: original!.destinationFundingSource,
        destinationFundingSource: original!.sourceFundingSource,
      });
      // Repeating is no error and no second transfer.
      expect(await initiate(r.refund.id)).toEqual(answer);
      expect(await transfersFor(r.refund.id)).toHaveLength(1);
    });

    it("refuses a refund that is not approved, and one whose transaction has not settled", async () => {
      const pending = await refund("completed", null);
      expect(await codeOf(initiate(pending.refund.id))).toBe("invalid_refund_transition");
      const rejected = await refund("completed", "Rejected");
      expect(await codeOf(initiate(rejected.refund.id))).toBe("invalid_refund_transition");
      const unsettled = await refund("pending");
      expect(await codeOf(initiate(unsettled.refund.id))).toBe("transaction_not_settled");
      // Once the money arrived, the same refund can be paid out.
      await h.client.call(simulateTransferOp, { transaction_uuid: unsettled.uuid, status: "completed" }, as(merchant));
      expect((await initiate(unsettled.refund.id)).refund.status).toBe("processing");
      expect(await codeOf(initiate(unsettled.refund.id, unsettled.user))).toBe("permission_denied");
      expect(await codeOf(initiate(unsettled.refund.id, await h.merchant()))).toBe("refund_not_found");
    });

    it("starts one transfer when 50 initiates race, asking the provider once", async () => {
      const r = await refund();
      const before = await allTransfers();
      const results = await Promise.all(Array.from({ length: 50 }, () => initiate(r.refund.id)));
      expect(new Set(results.map((x) => x.refund.refund_transaction_id)).size).toBe(1);
      expect(results.every((x) => x.refund.status === "processing" && x.refund.refund_transaction_id)).toBe(true);
      expect(await transfersFor(r.refund.id)).toHaveLength(1);
      expect((await allTransfers()) - before).toBe(1);
      // The calls that found the payout on its way waited for it instead of asking again.
      expect(h.providerAsks(r.refund.id)).toBe(1);
    });

    it("finishes a refund whose call died between recording processing and asking for the transfer", async () => {
      const r = await refund();
      const before = await allTransfers();
      h.crashAfterProcessing.next = true;
      expect(await codeOf(initiate(r.refund.id))).toBe("internal_error");
      const stuck = await h.store.collection<{ _id: string; status: string; refundTransactionId: string | null }>("refunds").findOne({ _id: r.refund.id });
      expect(stuck).toMatchObject({ status: "processing", refundTransactionId: null });
      expect(await transfersFor(r.refund.id)).toHaveLength(0);
      const answer = await initiate(r.refund.id);
      expect(answer.refund.refund_transaction_id).toBeTruthy();
      expect(await initiate(r.refund.id)).toEqual(answer);
      expect((await allTransfers()) - before).toBe(1);
    });

    it("completes the refund when its transfer completes, simulated by its refund_transaction_id", async () => {
      const r = await refund();
      const { refund: started } = await initiate(r.refund.id);
      const transferId = started.refund_transaction_id!;
      expect(await codeOf(simulate(transferId, "completed", await h.merchant()))).toBe("transaction_not_found");
      const done = await simulate(transferId, "completed");
      expect(done).toMatchObject({ id: r.refund.id, status: "completed", refund_transaction_id: transferId });
      // Final stays final: a late failure changes nothing, and initiating again answers the same.
      expect(await simulate(transferId, "failed")).toEqual(done);
      expect((await initiate(r.refund.id)).refund).toEqual(done);
      // A completed refund holds the transaction for good: the money went back once.
      expect(await codeOf(h.client.call(requestRefundOp, { transaction_uuid: r.uuid }, as(r.user)))).toBe("refund_exists");
    });

    it("fails the refund with the ACH return code when its transfer is returned, then pays it with a new transfer, once", async () => {
      const r = await refund();
      const { refund: started } = await initiate(r.refund.id);
      const failed = await simulate(started.refund_transaction_id!, "failed", merchant, "R03");
      expect(failed).toMatchObject({ status: "failed", failure_code: "R03", failure_reason: "No account, or unable to locate the account (ACH return R03)" });
      // The failure itself gave the amount back (not only the next request's clean-up).
      expect(await h.store.collection("refund_ledgers").findOne({ _id: r.uuid })).toMatchObject({ reservedCents: 0 });
      // The merchant initiates again: a new transfer with a new idempotency key, the failure cleared.
      const again = await initiate(r.refund.id);
      expect(again.refund).toMatchObject({ status: "processing", failure_code: null, failure_reason: null });
      expect(again.refund.refund_transaction_id).not.toBe(started.refund_transaction_id);
      expect(await initiate(r.refund.id)).toEqual(again);
      const keys = [r.refund.id, `${r.refund.id}-2`];
      const sent = await h.store.collection<SandboxTransfer>("sandbox_transfers").find({ idempotencyKey: { $in: keys } });
      expect(sent.map((t) => t.idempotencyKey).sort()).toEqual(keys);
      // A late report about the first payout changes nothing now.
      expect((await simulate(started.refund_transaction_id!, "failed")).status).toBe("processing");
      expect(await simulate(again.refund.refund_transaction_id!, "completed")).toMatchObject({ status: "completed", failure_code: null });
      expect(await completedPayouts(r.refund.id)).toBe(1);
      expect((await record(r)).amount_refunded).toBe(107.5);
    });

    it("fails the refund when the provider refuses its payout for good, and pays it with a new transfer when initiated again", async () => {
      const r = await refund();
      const before = await allTransfers();
      h.refusePayouts.refunds = 1;
      expect(await codeOf(initiate(r.refund.id))).toBe("provider_error");
      const failed = await h.store.collection<{ _id: string; status: string; failureCode: string; attempt: number }>("refunds").findOne({ _id: r.refund.id });
      expect(failed).toMatchObject({ status: "failed", failureCode: "InsufficientFunds", attempt: 1 });
      expect((await allTransfers()) - before).toBe(0);
      // The refusal gave the amount back at both ends: the refunds ledger and the transaction's payouts.
      expect(await h.store.collection("refund_ledgers").findOne({ _id: r.uuid })).toMatchObject({ reservedCents: 0 });
      expect(await h.store.collection("transactions").findOne({ _id: r.uuid })).toMatchObject({ refundReservedCents: 0 });
      const paid = await initiate(r.refund.id);
      expect(paid.refund).toMatchObject({ status: "processing", refund_transaction_id: expect.any(String), failure_code: null });
      expect(await transfersFor(`${r.refund.id}-2`)).toHaveLength(1);
      expect((await simulate(paid.refund.refund_transaction_id!, "completed")).status).toBe("completed");
      expect((await allTransfers()) - before).toBe(1);
    });

    it("lets the consumer ask again for a failed refund's amount, and then refuses the merchant's retry", async () => {
      const r = await refund();
      const { refund: started } = await initiate(r.refund.id);
      await simulate(started.refund_transaction_id!, "failed");
      const again = await ask(r, undefined, null);
      expect(again.amount).toBe(107.5);
      expect(await codeOf(initiate(r.refund.id))).toBe("amount_exceeds_refundable");
      expect((await h.store.collection<{ _id: string; status: string }>("refunds").findOne({ _id: r.refund.id }))?.status).toBe("failed");
      // Once the new request is rejected, the merchant's retry fits again.
      await h.client.call(decideRefundOp, { id: again.id, status: "Rejected" }, as(merchant));
      expect((await initiate(r.refund.id)).refund.status).toBe("processing");
    });

    it("finishes a retry that died between holding the amount again and moving the refund, and a payout counted but never recorded", async () => {
      const r = await refund();
      const { refund: started } = await initiate(r.refund.id);
      await simulate(started.refund_transaction_id!, "failed");
      // The dead retry's hold on attempt 2: nobody else may take it, the next retry uses it.
      const ledgers = h.store.collection<{ _id: string }>("refund_ledgers");
      const hold = { cents: r.amountCents, attempt: 2, at: new Date(Date.now() - 3_600_000).toISOString() };
      await ledgers.findOneAndUpdate({ _id: r.uuid }, { $set: { [`holds.${r.refund.id}`]: hold }, $inc: { reservedCents: r.amountCents } });
      expect(await codeOf(h.client.call(requestRefundOp, { transaction_uuid: r.uuid }, as(r.user)))).toBe("refund_exists");
      // And at payments, attempt 2 counted on the transaction by a call that died before its record.
      const transactions = h.store.collection<{ _id: string }>("transactions");
      await transactions.findOneAndUpdate({ _id: r.uuid }, { $set: { [`refundPayouts.${r.refund.id}-2`]: "live" }, $inc: { refundReservedCents: r.amountCents } });
      const paid = await initiate(r.refund.id);
      expect(paid.refund).toMatchObject({ status: "processing", refund_transaction_id: expect.any(String) });
      expect(await ledgers.findOne({ _id: r.uuid })).toMatchObject({ reservedCents: r.amountCents });
      expect(await transactions.findOne({ _id: r.uuid })).toMatchObject({ refundReservedCents: r.amountCents });
      expect((await simulate(paid.refund.refund_transaction_id!, "completed")).status).toBe("completed");
      expect((await record(r)).amount_refunded).toBe(107.5);
    });

    it("pays two partial refunds of one transaction and shows what went back on the record and the checkout", async () => {
      const t = await h.transaction(merchant, "completed");
      const first = await ask(t, "40.00");
      const second = await ask(t, "67.50");
      const [a, b] = [await initiate(first.id), await initiate(second.id)];
      expect((await transfersFor(first.id))[0]?.amountCents).toBe(4_000);
      await eventually(async () => expect(await checkout(t)).toMatchObject({ status: "paid", amount_refunded: 0 }));
      await simulate(a.refund.refund_transaction_id!, "completed");
      expect((await record(t)).amount_refunded).toBe(40);
      await eventually(async () => expect(await checkout(t)).toMatchObject({ status: "paid", amount_refunded: 40 }));
      await simulate(b.refund.refund_transaction_id!, "completed");
      expect(await record(t)).toMatchObject({ transaction_status: "completed", amount_refunded: 107.5 });
      await eventually(async () => expect(await checkout(t)).toMatchObject({ status: "refunded", amount_refunded: 107.5 }));
      // Repeating the reports changes nothing.
      await simulate(b.refund.refund_transaction_id!, "completed");
      await eventually(async () => expect(await checkout(t)).toMatchObject({ status: "refunded", amount_refunded: 107.5 }));
    });

    it("refunds a subscription's charges like any other transaction's, a later charge of the same subscription included", async () => {
      const t = await h.transaction(merchant, "completed", { is_subscription: true, plan_type: "monthly" });
      const paid = await initiate((await ask(t, "7.50")).id);
      await simulate(paid.refund.refund_transaction_id!, "completed");
      await eventually(async () => expect(await checkout(t)).toMatchObject({ status: "paid", subscription_status: "active", amount_refunded: 7.5 }));
      // A renewal: another record of the same subscription, written as payments writes one.
      const transactions = h.store.collection<Record<string, unknown> & { _id: string }>("transactions");
      const first = (await transactions.findOne({ _id: t.uuid }))!;
      const renewalUuid = `sc-${randomBytes(16).toString("hex")}`;
      const renewal: Record<string, unknown> & { _id: string } = { ...first, _id: renewalUuid, transaction_uuid: renewalUuid, id: Number(first["id"]) + 1_000_000, processor_transaction_id: crypto.randomUUID() };
      for (const field of ["refundPayouts", "refundReservedCents", "amountRefundedCents", "_outbox", "outboxPending"]) delete renewal[field];
      await transactions.insertOne(renewal);
      const renewalRefund = await ask({ uuid: renewalUuid, user: t.user });
      expect(renewalRefund.amount).toBe(107.5);
      const back = await initiate(renewalRefund.id);
      expect(await simulate(back.refund.refund_transaction_id!, "completed")).toMatchObject({ status: "completed", transaction_uuid: renewalUuid });
      // The checkout adds it up; its status follows the first charge it names, which is not fully refunded.
      await eventually(async () => expect(await checkout(t)).toMatchObject({ status: "paid", amount_refunded: 115 }));
      expect((await record({ uuid: renewalUuid, user: t.user })).amount_refunded).toBe(107.5);
    });

    it("never lets payments pay out more than the transaction's amount, or two payouts of one refund at once", async () => {
      const r = await refund();
      const ask = (refundId: string, amountCents = r.amountCents, attempt = 1) =>
        h.client.call(startRefundTransferOp, { refund_id: refundId, attempt, transaction_uuid: r.uuid, amount_cents: amountCents, currency: "USD" }, as(SERVICE));
      expect(await codeOf(ask("rfd_22222222222222222222222222222222", r.amountCents + 1))).toBe("parameter_invalid");
      const first = await ask("rfd_22222222222222222222222222222222", 10_000);
      expect(first).toMatchObject({ status: "pending", transfer_id: expect.any(String) });
      expect(await ask("rfd_22222222222222222222222222222222", 10_000)).toEqual(first);
      expect(await codeOf(ask("rfd_33333333333333333333333333333333", 751))).toBe("amount_exceeds_refundable");
      expect(await ask("rfd_33333333333333333333333333333333", 750)).toMatchObject({ status: "pending" });
      // A second payout of a refund starts only once its first failed.
      expect(await codeOf(ask("rfd_22222222222222222222222222222222", 10_000, 2))).toBe("invalid_refund_transition");
      expect(await codeOf(ask("rfd_44444444444444444444444444444444", 1, 2))).toBe("invalid_refund_transition");
      const unsettled = await h.transaction(merchant, "pending");
      const early = { refund_id: "rfd_55555555555555555555555555555555", attempt: 1, transaction_uuid: unsettled.uuid, amount_cents: 1, currency: "USD" };
      expect(await codeOf(h.client.call(startRefundTransferOp, early, as(SERVICE)))).toBe("transaction_not_settled");
    });
  });
});
