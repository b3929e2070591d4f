import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { SandboxTransferAdapter } from "../../payments/src/adapters/sandbox-transfers/sandbox-transfer.adapter.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, WEBHOOK_SECRET, type Stack } from "../../../test/support/stack.ts";
import { payment, refundClient, requested } from "./support/refund-flow.ts";

const variants = await infraVariants();

/** Refunds under concurrency, a crash half-way through a payout, and the provider's webhooks. */
describe.each(variants)("refund races and recovery through the gateway over $name", (variant) => {
  let stack: Stack;
  let store: Store;
  let key: { "api-key": string };
  let refunds: ReturnType<typeof refundClient>;
  /** Set to make the next payout "crash" between recording `processing` and the provider call. */
  let crashNext = false;

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant, {
      refundsHooks: {
        afterProcessing: async () => {
          if (!crashNext) return;
          crashNext = false;
          throw new Error("injected crash after recording processing");
        },
      },
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
      const stored = await store.collection<{ _id: string; status: string; refundTransactionId: string }>("refunds").findOne({ _id: refund.id });
      expect(stored).toMatchObject({ status: "completed", refundTransactionId: transferId });
    });
  });
});
