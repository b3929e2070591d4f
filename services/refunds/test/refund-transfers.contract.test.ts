import { uncheckedStore } from "@payrail/store/testing";
import {
  decideRefundOp,
  initiateRefundTransferOp,
  requestRefundOp,
  simulateTransferOp,
  startRefundTransferOp,
  type MerchantPrincipal,
  type RefundRecord,
} from "@payrail/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
    const { refund } = await h.client.call(requestRefundOp, { transaction_uuid: t.uuid }, as(t.user));
    if (decision) await h.client.call(decideRefundOp, { id: refund.id, status: decision }, as(merchant));
    return { ...t, refund };
  }
  const initiate = (id: string, who: Parameters<typeof as>[0] = merchant) =>
    h.client.call(initiateRefundTransferOp, { id, status: "approved" }, as(who), { timeoutMs: 15_000 });
  const transfersFor = (refundId: string) => h.store.collection<SandboxTransfer>("sandbox_transfers").find({ idempotencyKey: refundId });
  const allTransfers = () => uncheckedStore(h.store).collection("sandbox_transfers").countDocuments({});
  const simulate = (transferId: string, status: "completed" | "failed", who: MerchantPrincipal = merchant) =>
    h.client.call(simulateTransferOp, { transaction_uuid: transferId, status }, as(who)) as Promise<RefundRecord>;

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

    it("starts one transfer when 50 initiates race", async () => {
      const r = await refund();
      const before = await allTransfers();
      const results = await Promise.all(Array.from({ length: 50 }, () => initiate(r.refund.id)));
      expect(new Set(results.map((x) => x.refund.refund_transaction_id)).size).toBe(1);
      expect(results.every((x) => x.refund.status === "processing" && x.refund.refund_transaction_id)).toBe(true);
      expect(await transfersFor(r.refund.id)).toHaveLength(1);
      expect((await allTransfers()) - before).toBe(1);
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

    it("fails the refund when its transfer fails, and lets a new refund pay out then", async () => {
      const r = await refund();
      const { refund: started } = await initiate(r.refund.id);
      const failed = await simulate(started.refund_transaction_id!, "failed");
      expect(failed).toMatchObject({ status: "failed" });
      // The failure itself freed the transaction (not only the next request's clean-up).
      expect(await h.store.collection("refund_claims").countDocuments({ _id: r.uuid })).toBe(0);
      expect(await codeOf(initiate(r.refund.id))).toBe("invalid_refund_transition");
      const { refund: next } = await h.client.call(requestRefundOp, { transaction_uuid: r.uuid }, as(r.user));
      await h.client.call(decideRefundOp, { id: next.id, status: "approved" }, as(merchant));
      const paid = await initiate(next.id);
      expect(paid.refund.refund_transaction_id).not.toBe(started.refund_transaction_id);
      expect((await simulate(paid.refund.refund_transaction_id!, "completed")).status).toBe("completed");
    });

    it("never lets payments pay out two refunds of one transaction, or more than its amount", async () => {
      const r = await refund();
      const ask = (refundId: string, amountCents = r.amountCents) =>
        h.client.call(startRefundTransferOp, { refund_id: refundId, transaction_uuid: r.uuid, amount_cents: amountCents, currency: "USD" }, as(SERVICE));
      expect(await codeOf(ask("rfd_22222222222222222222222222222222", r.amountCents + 1))).toBe("parameter_invalid");
      const first = await ask("rfd_22222222222222222222222222222222");
      expect(await ask("rfd_22222222222222222222222222222222")).toEqual(first);
      expect(await codeOf(ask("rfd_33333333333333333333333333333333"))).toBe("refund_exists");
      const unsettled = await h.transaction(merchant, "pending");
      const early = { refund_id: "rfd_44444444444444444444444444444444", transaction_uuid: unsettled.uuid, amount_cents: 1, currency: "USD" };
      expect(await codeOf(h.client.call(startRefundTransferOp, early, as(SERVICE)))).toBe("transaction_not_settled");
    });
  });
});
