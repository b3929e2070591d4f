import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { SandboxTransferAdapter } from "../../payments/src/adapters/sandbox-transfers/sandbox-transfer.adapter.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, WEBHOOK_SECRET, type Stack } from "../../../test/support/stack.ts";
import { linkedCheckout } from "./support/payment-flow.ts";
import { eventually } from "../../../test/support/eventually.ts";

const variants = await infraVariants();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe.each(variants)("payment flow through the gateway over $name", (variant) => {
  let stack: Stack;
  let store: Store;
  let merchant: { id: string; apiKey: string };
  let other: { id: string; apiKey: string };

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    store = await variant.store();
    merchant = await stack.merchant("Acme");
    other = await stack.merchant("Globex");
  });
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  const processorToken = (checkoutId: string, apiKey = merchant.apiKey) =>
    stack.app.inject({
      method: "POST",
      url: "/api/merchants/payment_preprocess/get_processor_token",
      payload: { checkout_id: checkoutId },
      headers: { "api-key": apiKey },
    });
  const checkout = async (id: string) =>
    (await stack.app.inject({ url: `/api/merchants/checkout/${id}`, headers: { "api-key": merchant.apiKey } })).json();
  const details = async (token: string, query = "") =>
    stack.app.inject({ url: `/api/merchants/manage_subscription/get_subscription_details/${query}`, headers: { authorization: `Token ${token}` } });
  const simulate = (uuid: string, body: object, apiKey = merchant.apiKey) =>
    stack.app.inject({ method: "POST", url: `/api/sandbox/transfers/${uuid}/simulate`, payload: body, headers: { "api-key": apiKey } });
  const cancel = (token: string, uuid: string) =>
    stack.app.inject({
      method: "POST",
      url: "/api/merchants/manage_subscription/subscription_cancel/",
      payload: { subscription_transaction_uuid: uuid },
      headers: { authorization: token },
    });

  describe.skipIf(!!variant.skipReason)("flow", () => {
    it("executes a one-off payment once, logs it, and settles it through the sandbox", async () => {
      const { id, consumer } = await linkedCheckout(stack, merchant.apiKey);
      const first = await processorToken(id);
      expect(first.statusCode).toBe(200);
      const body = first.json();
      expect(body).toEqual({ message: "Transaction executed", transaction_uuid: expect.stringMatching(/^sc-[0-9a-f]{32}$/), transaction_id: expect.stringMatching(UUID) });
      expect((await processorToken(id)).json()).toEqual(body);

      // The checkout follows payments' transaction.* events, asynchronously.
      const view = await eventually(async () => {
        const v = await checkout(id);
        expect(v).toMatchObject({ status: "transfer_pending", subscription_status: "", amount_refunded: 0 });
        return v;
      });
      expect(view.transfer).toEqual({
        transaction_uuid: body.transaction_uuid,
        processor_transaction_id: body.transaction_id,
        status: "pending",
        amount: 107.5,
        currency: "USD",
        initiated_at: expect.stringMatching(ISO),
      });

      const log = await details(consumer.token);
      expect(log.statusCode).toBe(200);
      const [record] = log.json();
      expect(record).toEqual({
        id: expect.any(Number),
        transaction_uuid: body.transaction_uuid,
        processor_transaction_id: body.transaction_id,
        amount: 107.5,
        user_id: consumer.userId,
        consumer_transaction_id: expect.stringMatching(UUID),
        merchant_transaction_id: expect.stringMatching(UUID),
        checkout_id: expect.any(Number),
        checkout: id,
        transaction_status: "pending",
        transaction_date_time: expect.stringMatching(ISO),
        description: expect.any(String),
        company_entry_description: "PURCHASE",
        error: null,
        amount_refunded: 0,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      });
      expect(Number.isInteger(record.id) && Number.isInteger(record.checkout_id)).toBe(true);

      expect((await simulate(body.transaction_uuid, { status: "completed" }, other.apiKey)).statusCode).toBe(404);
      const settled = await simulate(body.transaction_uuid, { status: "completed" });
      expect(settled.statusCode).toBe(200);
      expect(settled.json()).toMatchObject({ transaction_uuid: body.transaction_uuid, transaction_status: "completed", error: null });
      await eventually(async () => expect(await checkout(id)).toMatchObject({ status: "paid", transfer: { status: "completed" } }));
      // A settled status never moves back to pending or failed (a later failure is a return: returns.http.test.ts).
      const late = await simulate(body.transaction_uuid, { status: "completed" });
      expect(late.json()).toMatchObject({ transaction_status: "completed", error: null });
      expect((await processorToken(id)).json()).toEqual(body);
      // The one-off checkout is no subscription.
      expect((await cancel(consumer.token, body.transaction_uuid)).json().error.code).toBe("not_a_subscription");
    });

    it("runs a subscription: active, failed with its return code, cancelled once and for all", async () => {
      const { id, consumer } = await linkedCheckout(stack, merchant.apiKey, { is_subscription: true, plan_type: "monthly" });
      const { transaction_uuid } = (await processorToken(id)).json();
      await eventually(async () => expect(await checkout(id)).toMatchObject({ status: "transfer_pending", subscription_status: "active" }));

      const failed = await simulate(transaction_uuid, { status: "failed", failure_code: "R01" });
      expect(failed.json()).toMatchObject({ transaction_status: "failed", error: "R01" });
      await eventually(async () => expect(await checkout(id)).toMatchObject({ status: "failed", transfer: { status: "failed" } }));

      const stranger = await linkedCheckout(stack, merchant.apiKey);
      expect((await cancel(stranger.consumer.token, transaction_uuid)).statusCode).toBe(404);
      for (let i = 0; i < 2; i++) {
        const cancelled = await cancel(consumer.token, transaction_uuid);
        expect(cancelled.statusCode).toBe(200);
        expect(cancelled.json()).toEqual({ message: `user ${consumer.phone} is unsubscribed` });
      }
      await eventually(async () => expect(await checkout(id)).toMatchObject({ subscription_status: "cancelled" }));
      const filtered = await details(consumer.token, `?checkout_id=${id}`);
      expect(filtered.json().map((r: { transaction_uuid: string }) => r.transaction_uuid)).toEqual([transaction_uuid]);
    });

    it("starts one transfer when 50 requests race", async () => {
      const { id } = await linkedCheckout(stack, merchant.apiKey);
      const replies = await Promise.all(Array.from({ length: 50 }, () => processorToken(id)));
      const ok = replies.filter((r) => r.statusCode === 200);
      const busy = replies.filter((r) => r.statusCode === 409);
      expect(ok.length + busy.length).toBe(50);
      expect(ok.length).toBeGreaterThan(0);
      for (const r of busy) expect(r.json().error.code).toBe("transfer_in_progress");
      const bodies = new Set(ok.map((r) => r.body));
      expect(bodies.size).toBe(1);
      const { transaction_uuid } = ok[0]!.json();
      expect(await store.collection("sandbox_transfers").countDocuments({ idempotencyKey: transaction_uuid })).toBe(1);
      expect(await uncheckedStore(store).collection("transactions").countDocuments({ checkoutRef: id })).toBe(1);
      expect((await processorToken(id)).json().transaction_uuid).toBe(transaction_uuid);
    });

    it("refuses other merchants, unlinked checkouts and consumers", async () => {
      const { id } = await linkedCheckout(stack, merchant.apiKey);
      const foreign = await processorToken(id, other.apiKey);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error.code).toBe("checkout_not_found");

      const bare = await stack.app.inject({
        method: "POST",
        url: "/api/merchants/checkout",
        payload: (await import("../../../test/support/fixtures.ts")).sampleCheckout(),
        headers: { "api-key": merchant.apiKey },
      });
      const missing = await processorToken(bare.json().id);
      expect(missing.statusCode).toBe(409);
      expect(missing.json().error.code).toBe("payment_method_missing");

      const noKey = await stack.app.inject({ method: "POST", url: "/api/merchants/payment_preprocess/get_processor_token", payload: { checkout_id: id } });
      expect(noKey.statusCode).toBe(401);
      expect((await details("not-a-token")).statusCode).toBe(401);
    });

    it("applies a webhook replayed 5 times and out of order as one status change", async () => {
      const { id } = await linkedCheckout(stack, merchant.apiKey);
      const { transaction_id } = (await processorToken(id)).json();
      // The provider settles the transfer; its webhooks then arrive repeatedly, with a stale one.
      await new SandboxTransferAdapter(store, silentLogger()).simulate(transaction_id, { status: "completed" });
      const send = (event: object, secret = WEBHOOK_SECRET) => {
        const raw = JSON.stringify(event);
        return stack.app.inject({
          method: "POST",
          url: "/api/webhooks/transfers",
          payload: raw,
          headers: { "content-type": "application/json", "x-request-signature-sha-256": createHmac("sha256", secret).update(raw).digest("hex") },
        });
      };
      const href = `https://api-sandbox.dwolla.com/transfers/${transaction_id}`;
      const completed = { id: `evt-${transaction_id}-c`, topic: "customer_transfer_completed", _links: { resource: { href } } };
      const stale = { id: `evt-${transaction_id}-p`, topic: "customer_transfer_created", _links: { resource: { href } } };
      const replies = [];
      for (let i = 0; i < 5; i++) replies.push(await send(completed));
      replies.push(await send(stale));
      expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(replies.map((r) => r.json().duplicate)).toEqual([false, true, true, true, true, false]);
      await eventually(async () => expect(await checkout(id)).toMatchObject({ status: "paid" }));
      const record = await uncheckedStore(store).collection<{ _id: string; transaction_status: string; updated_at: string }>("transactions").findOne({ checkoutRef: id });
      expect(record?.transaction_status).toBe("completed");

      const forged = await send({ ...completed, id: "evt-forged" }, "wrong-secret");
      expect(forged.statusCode).toBe(401);
      expect(forged.json().error.code).toBe("webhook_signature_invalid");
      const unsigned = await stack.app.inject({ method: "POST", url: "/api/webhooks/transfers", payload: completed });
      expect(unsigned.statusCode).toBe(401);
    });
  });
});
