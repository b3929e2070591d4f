import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@payrail/store";
import { infraVariants } from "../../../test/support/infra.ts";
import { ADMIN_TOKEN, startStack, type Stack } from "../../../test/support/stack.ts";
import { consumerToken, randomPhone } from "./support/bank-linking.ts";
import { payment, refundClient, requested } from "./support/refund-flow.ts";

const variants = await infraVariants();
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe.each(variants)("refund flow through the gateway over $name", (variant) => {
  let stack: Stack;
  let store: Store;
  let merchant: { id: string; apiKey: string };
  let other: { id: string; apiKey: string };
  let refunds: ReturnType<typeof refundClient>;

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    store = await variant.store();
    merchant = await stack.merchant("Acme");
    other = await stack.merchant("Globex");
    refunds = refundClient(stack);
  });
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  const addOperator = (merchantId: string, phone: string) =>
    stack.app.inject({ method: "POST", url: `/api/admin/merchants/${merchantId}/operators`, payload: { phone }, headers: { "x-admin-token": ADMIN_TOKEN } });

  describe.skipIf(!!variant.skipReason)("flow", () => {
    it("runs the specification's refund flow end to end, as a merchant backend calls it", async () => {
      const p = await payment(stack, merchant.apiKey, "completed");
      // Clients send api-key on consumer endpoints too (ignored there), and extra keys.
      const consumerHeaders = { authorization: `Token ${p.consumer.token}`, "api-key": "sk_test_whatever" };
      const asked = await refunds.request(consumerHeaders, { transaction_uuid: p.uuid, reason: "changed my mind", isSandbox: true });
      expect(asked.statusCode).toBe(200);
      const { message, refund } = asked.json();
      expect(message).toBe("Refund request sent");
      expect(refund).toEqual({
        id: expect.stringMatching(/^rfd_[0-9a-f]{32}$/),
        transaction_uuid: p.uuid,
        checkout_id: expect.any(Number),
        amount: 107.5,
        currency: "USD",
        status: "pending",
        reason: "changed my mind",
        refund_transaction_id: null,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      });
      for (const slash of ["", "/"]) {
        const list = await refunds.list({ authorization: p.consumer.token }, slash);
        expect(list.statusCode).toBe(200);
        expect(list.json()).toEqual([refund]);
      }

      // The merchant's backend sends its api-key and an Authorization token: the valid api-key decides.
      const both = { "api-key": merchant.apiKey, authorization: `Token ${p.consumer.token}` };
      const approved = await refunds.decide(both, refund.id, "Approved", "");
      expect(approved.statusCode).toBe(200);
      expect(approved.json()).toMatchObject({ message: "Refund request approved by merchant", refund: { id: refund.id, status: "approved" } });

      const paid = await refunds.initiate(both, refund.id, "");
      expect(paid.statusCode).toBe(200);
      const { refund: processing } = paid.json();
      expect(paid.json().message).toBe("Refund success");
      expect(processing).toMatchObject({ status: "processing", refund_transaction_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(await store.collection("sandbox_transfers").countDocuments({ idempotencyKey: refund.id })).toBe(1);

      expect((await refunds.simulate(other.apiKey, processing.refund_transaction_id, "completed")).statusCode).toBe(404);
      const settled = await refunds.simulate(merchant.apiKey, processing.refund_transaction_id, "completed");
      expect(settled.statusCode).toBe(200);
      expect(settled.json()).toMatchObject({ id: refund.id, status: "completed", refund_transaction_id: processing.refund_transaction_id });
      expect((await refunds.list({ authorization: `Bearer ${p.consumer.token}` })).json()[0]).toMatchObject({ status: "completed" });
      expect((await refunds.initiate(both, refund.id)).json()).toMatchObject({ message: "Refund success", refund: { status: "completed" } });
    });

    it("lets an operator's token decide and pay out, never the consumer's own", async () => {
      const p = await payment(stack, merchant.apiKey, "completed");
      const refund = await requested(stack, p);
      const consumer = { authorization: `Token ${p.consumer.token}` };
      for (const call of [refunds.decide(consumer, refund.id, "Approved"), refunds.initiate(consumer, refund.id)]) {
        const reply = await call;
        expect(reply.statusCode).toBe(403);
        expect(reply.json().error).toMatchObject({ type: "permission_error", code: "permission_denied" });
      }
      const phone = randomPhone();
      const added = await addOperator(merchant.id, phone);
      expect(added.statusCode).toBe(200);
      expect(added.json()).toEqual({ merchant_id: merchant.id, phone });
      expect((await addOperator(merchant.id, phone)).statusCode).toBe(200);
      expect((await addOperator(merchant.id, "not a phone")).json().error.code).toBe("invalid_phone_number");
      expect((await addOperator(`mer_${"0".repeat(32)}`, phone)).statusCode).toBe(404);

      const operator = { authorization: `Token ${(await consumerToken(stack, merchant.apiKey, phone)).token}` };
      expect((await refunds.decide(operator, refund.id, "approved")).json().refund.status).toBe("approved");
      // A wrong api-key next to the operator's token: the token is the credential then.
      const paid = await refunds.initiate({ ...operator, "api-key": "sk_test_nope" }, refund.id);
      expect(paid.statusCode).toBe(200);
      expect(paid.json().refund.status).toBe("processing");
      // Alone, a wrong api-key is a 401; another merchant's valid key decides, and knows no such refund.
      expect((await refunds.initiate({ "api-key": "sk_test_nope" }, refund.id)).statusCode).toBe(401);
      expect((await refunds.initiate({}, refund.id)).statusCode).toBe(401);
      const foreign = await refunds.initiate({ ...operator, "api-key": other.apiKey }, refund.id);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error.code).toBe("refund_not_found");
      expect((await refunds.decide({ "api-key": other.apiKey }, refund.id, "Rejected")).statusCode).toBe(404);
    });

    it("refuses what cannot be refunded or paid out yet, and a second live refund", async () => {
      const failed = await payment(stack, merchant.apiKey, "failed");
      const refused = await refunds.request({ authorization: failed.consumer.token }, { transaction_uuid: failed.uuid });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe("transaction_not_refundable");

      const pending = await payment(stack, merchant.apiKey, "pending");
      const refund = await requested(stack, pending);
      const key = { "api-key": merchant.apiKey };
      expect((await refunds.initiate(key, refund.id)).json().error.code).toBe("invalid_refund_transition");
      await refunds.decide(key, refund.id, "APPROVED");
      const early = await refunds.initiate(key, refund.id);
      expect(early.statusCode).toBe(409);
      expect(early.json().error.code).toBe("transaction_not_settled");
      // `status` is optional on Initiate Refund Transfer; when sent it must be approved (any case).
      const initiateBody = (payload: object) =>
        stack.app.inject({ method: "POST", url: "/api/merchants/refund_request/initiate_refund_transfer", payload, headers: key });
      expect((await initiateBody({ id: refund.id })).json().error.code).toBe("transaction_not_settled");
      expect((await initiateBody({ id: refund.id, status: "APPROVED" })).json().error.code).toBe("transaction_not_settled");
      expect((await initiateBody({ id: refund.id, status: "rejected" })).json().error).toMatchObject({ code: "parameter_invalid", param: "status" });

      const second = await refunds.request({ authorization: pending.consumer.token }, { transaction_uuid: pending.uuid });
      expect(second.statusCode).toBe(409);
      expect(second.json().error.code).toBe("refund_exists");
      const stranger = await payment(stack, merchant.apiKey, "completed");
      const notMine = await refunds.request({ authorization: stranger.consumer.token }, { transaction_uuid: pending.uuid });
      expect(notMine.statusCode).toBe(404);

      const c = await payment(stack, merchant.apiKey, "completed");
      const first = await requested(stack, c);
      expect((await refunds.decide(key, first.id, "rejected")).json().message).toBe("Refund request rejected by merchant");
      expect((await refunds.decide(key, first.id, "Approved")).json().error.code).toBe("invalid_refund_transition");
      const again = await requested(stack, c);
      expect(again.id).not.toBe(first.id);
      const bad = await refunds.decide(key, again.id, "Maybe");
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.param).toBe("status");
    });
  });
});
