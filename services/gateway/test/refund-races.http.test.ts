import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { SandboxTransferAdapter } from "../../payments/src/adapters/sandbox-transfers/sandbox-transfer.adapter.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { refusingRefundPayouts } from "../../../test/support/refusing-transfers.ts";
import { startStack, WEBHOOK_SECRET, type Stack } from "../../../test/support/stack.ts";
import { refundToProcessing } from "../../../test/support/store-with-faults.ts";
import { payment, refundClient, requested } from "./support/refund-flow.ts";
import { eventually } from "../../../test/support/eventually.ts";

const variants = await infraVariants();

/** Refunds under concurrency, a crash half-way through a payout, and the provider's webhooks. */
describe.each(variants)("refund races and recovery through the gateway over $name", (variant) => {
  let stack: Stack;
  let store: Store;
  let key: { "api-key": string };
  let refunds: ReturnType<typeof refundClient>;
  /** Set to make the next payout "crash" between recording `processing` and the provider call. */
  let crashNext = false;
  /** Set to make the provider refuse (for good) that many next refund payouts. */
  const refuse = { refunds: 0 };

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant, {
      storeFaults: {
        after: async (write) => {
          if (!crashNext || !refundToProcessing(write)) return;
          crashNext = false;
          throw new Error("injected crash after recording processing");
        },
      },
      wrapTransfers: refusingRefundPayouts(refuse),
    });
    store = await variant.store();
    key = { "api-key": (await stack.merchant("Acme")).apiKey };
    refunds = refundClient(stack);
  });
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  const approvedRefund = async () => {
    const refund = await requested(stack, await payment(stack, key["api-key"], "completed"));
    expect((await refunds.decide(key, refund.id, "Approved")).statusCode).toBe(200);
    return refund;
  };
  const transfersOf = (refundId: string) => store.collection("sandbox_transfers").countDocuments({ idempotencyKey: refundId });
  /** The refund's payouts at payments (first, then `-2`, `-3`…), by status. */
  const payouts = async (refundId: string) =>
    (await store.collection<{ _id: string; status: string }>("refund_transfers").find({ _id: { $in: [refundId, `${refundId}-2`, `${refundId}-3`] } }))
      .map((p) => p.status)
      .sort();
  const allTransfers = () => uncheckedStore(store).collection("sandbox_transfers").countDocuments({});

  describe.skipIf(!!variant.skipReason)("races", () => {
    it("lets one decision win when 50 approvals and rejections race", async () => {
      const refund = await requested(stack, await payment(stack, key["api-key"], "completed"));
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, i) => refunds.decide(key, refund.id, i % 2 ? "Approved" : "rejected", i % 3 ? "/" : "")),
      );
      const ok = replies.filter((r) => r.statusCode === 200);
      const conflicts = replies.filter((r) => r.statusCode === 409);
      expect(ok.length + conflicts.length).toBe(50);
      expect(ok).toHaveLength(25);
      const decided = new Set(ok.map((r) => r.json().refund.status));
      expect(decided.size).toBe(1);
      for (const r of conflicts) expect(r.json().error.code).toBe("invalid_refund_transition");
      const stored = await store.collection<{ _id: string; status: string }>("refunds").findOne({ _id: refund.id });
      expect(stored?.status).toBe([...decided][0]);
    });

    it("starts one refund transfer when 50 initiates race", async () => {
      const refund = await approvedRefund();
      const before = await allTransfers();
      const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => refunds.initiate(key, refund.id, i % 2 ? "/" : "")));
      expect(replies.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
      const ids = new Set(replies.map((r) => r.json().refund.refund_transaction_id));
      expect(ids.size).toBe(1);
      expect([...ids][0]).toEqual(expect.any(String));
      expect(await transfersOf(refund.id)).toBe(1);
      expect((await allTransfers()) - before).toBe(1);
    });

    it("finishes a payout that died between recording processing and the provider call, without a second transfer", async () => {
      const refund = await approvedRefund();
      const before = await allTransfers();
      crashNext = true;
      const crashed = await refunds.initiate(key, refund.id);
      expect(crashed.statusCode).toBe(500);
      expect(crashed.json().error.code).toBe("internal_error");
      expect(await transfersOf(refund.id)).toBe(0);
      const resumed = await refunds.initiate(key, refund.id);
      expect(resumed.statusCode).toBe(200);
      expect(resumed.json().refund).toMatchObject({ status: "processing", refund_transaction_id: expect.any(String) });
      expect((await refunds.initiate(key, refund.id)).json()).toEqual(resumed.json());
      expect((await allTransfers()) - before).toBe(1);
    });

    it("never accepts more than the payment's amount when 50 requests for overlapping amounts race", async () => {
      const p = await payment(stack, key["api-key"], "completed");
      const amounts = Array.from({ length: 50 }, (_, i) => ["9.99", "15.00", "25.50", "40.00", "3.01"][i % 5]!);
      const replies = await Promise.all(
        amounts.map((amount) => refunds.request({ authorization: `Token ${p.consumer.token}` }, { transaction_uuid: p.uuid, amount })),
      );
      const accepted = replies.filter((r) => r.statusCode === 200).map((r) => r.json().refund);
      const refused = replies.flatMap((r, i) => (r.statusCode === 200 ? [] : [{ reply: r, cents: Math.round(Number(amounts[i]) * 100) }]));
      const acceptedCents = accepted.reduce((sum: number, r: { amount: number }) => sum + Math.round(r.amount * 100), 0);
      expect(acceptedCents).toBeLessThanOrEqual(10_750);
      for (const { reply, cents } of refused) {
        expect(reply.statusCode).toBe(409);
        expect(reply.json().error.code).toBe("amount_exceeds_refundable");
        // Refused only when it would not have fitted even at the end.
        expect(cents).toBeGreaterThan(10_750 - acceptedCents);
      }
      const stored = await store.collection<{ _id: string; reservedCents: number }>("refund_ledgers").findOne({ _id: p.uuid });
      expect(stored?.reservedCents).toBe(acceptedCents);
    });

    it("pays a refund whose payout was returned with a new transfer, once, however many retries race", async () => {
      const refund = await approvedRefund();
      const first = (await refunds.initiate(key, refund.id)).json().refund.refund_transaction_id as string;
      const returned = await refunds.simulate(key["api-key"], first, "failed");
      expect(returned.json()).toMatchObject({ status: "failed", failure_code: "R01", failure_reason: "Insufficient funds (ACH return R01)" });
      const before = await allTransfers();
      const retries = await Promise.all(Array.from({ length: 20 }, () => refunds.initiate(key, refund.id)));
      expect(retries.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
      const second = new Set(retries.map((r) => r.json().refund.refund_transaction_id));
      expect(second.size).toBe(1);
      expect(second.has(first)).toBe(false);
      expect((await allTransfers()) - before).toBe(1);
      const paid = await refunds.simulate(key["api-key"], [...second][0], "completed");
      expect(paid.json()).toMatchObject({ status: "completed", failure_code: null });
      expect(await payouts(refund.id)).toEqual(["completed", "failed"]);
    });

    it("fails a refund whose payout the provider refuses for good (502 with its code), then pays it when initiated again", async () => {
      const refund = await approvedRefund();
      refuse.refunds = 1;
      const refused = await refunds.initiate(key, refund.id);
      expect(refused.statusCode).toBe(502);
      expect(refused.json().error).toMatchObject({ type: "provider_error", code: "provider_error", provider_code: "InsufficientFunds" });
      const failed = await stack.app.inject({ url: `/api/merchants/refunds/${refund.id}`, headers: key });
      expect(failed.json()).toMatchObject({
        status: "failed",
        failure_code: "InsufficientFunds",
        failure_reason: expect.stringContaining("InsufficientFunds"),
        refund_transaction_id: null,
      });
      const again = await refunds.initiate(key, refund.id);
      expect(again.statusCode).toBe(200);
      expect((await refunds.simulate(key["api-key"], again.json().refund.refund_transaction_id, "completed")).json().status).toBe("completed");
      expect(await payouts(refund.id)).toEqual(["completed", "failed"]);
    });

    it("completes a refund from the provider's signed webhook, replayed", async () => {
      const refund = await approvedRefund();
      const transferId = (await refunds.initiate(key, refund.id)).json().refund.refund_transaction_id as string;
      await new SandboxTransferAdapter(store, silentLogger()).simulate(transferId, { status: "completed" });
      const event = { id: `evt-${transferId}`, topic: "customer_transfer_completed", _links: { resource: { href: `https://api-sandbox.dwolla.com/transfers/${transferId}` } } };
      const raw = JSON.stringify(event);
      const signature = createHmac("sha256", WEBHOOK_SECRET).update(raw).digest("hex");
      const send = () =>
        stack.app.inject({ method: "POST", url: "/api/webhooks/transfers", payload: raw, headers: { "content-type": "application/json", "x-request-signature-sha-256": signature } });
      expect((await send()).json()).toEqual({ received: true, duplicate: false });
      expect((await send()).json()).toEqual({ received: true, duplicate: true });
      // Refunds follows payments' refund_payout.settled event, asynchronously.
      await eventually(async () =>
        expect(await store.collection<{ _id: string; status: string; refundTransactionId: string }>("refunds").findOne({ _id: refund.id })).toMatchObject({
          status: "completed",
          refundTransactionId: transferId,
        }),
      );
    });
  });
});
