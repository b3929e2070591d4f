import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@payrail/store";
import { infraVariants } from "../../../test/support/infra.ts";
import { ADMIN_TOKEN, startStack, type Stack } from "../../../test/support/stack.ts";
import { consumerToken, randomPhone } from "./support/bank-linking.ts";
import { payment, refundClient, requested } from "./support/refund-flow.ts";
import { eventually } from "../../../test/support/eventually.ts";

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

  const admin = { "x-admin-token": ADMIN_TOKEN };
  const addOperator = (merchantId: string, phone: string) =>
    stack.app.inject({ method: "POST", url: `/api/admin/merchants/${merchantId}/operators`, payload: { phone }, headers: admin });
  const operators = (merchantId: string) => stack.app.inject({ url: `/api/admin/merchants/${merchantId}/operators`, headers: admin });
  const removeOperator = (merchantId: string, phone: string) =>
    stack.app.inject({ method: "DELETE", url: `/api/admin/merchants/${merchantId}/operators/${phone}`, headers: admin });
  const getCheckout = async (id: string) => (await stack.app.inject({ url: `/api/merchants/checkout/${id}`, headers: { "api-key": merchant.apiKey } })).json();
  const record = async (p: { uuid: string; consumer: { token: string } }) =>
    (
      await stack.app.inject({ url: "/api/merchants/manage_subscription/get_subscription_details/", headers: { authorization: `Token ${p.consumer.token}` } })
    )
      .json()
      .find((r: { transaction_uuid: string }) => r.transaction_uuid === p.uuid);

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
        checkout: p.checkoutId,
        amount: 107.5,
        currency: "USD",
        status: "pending",
        reason: "changed my mind",
        refund_transaction_id: null,
        failure_code: null,
        failure_reason: null,
        over_returned_at: null,
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

    it("refunds part of a payment twice, as the README shows: amount_refunded on the record and the checkout, then refunded", async () => {
      const p = await payment(stack, merchant.apiKey, "completed");
      const key = { "api-key": merchant.apiKey };
      const consumer = { authorization: `Token ${p.consumer.token}` };
      const payBack = async (amount?: string) => {
        const asked = await refunds.request(consumer, { transaction_uuid: p.uuid, ...(amount ? { amount } : {}) });
        expect(asked.statusCode).toBe(200);
        const { id } = asked.json().refund;
        expect((await refunds.decide(key, id, "Approved")).statusCode).toBe(200);
        const transferId = (await refunds.initiate(key, id)).json().refund.refund_transaction_id;
        const settled = await refunds.simulate(merchant.apiKey, transferId, "completed");
        expect(settled.statusCode).toBe(200);
        return settled.json();
      };
      expect(await payBack("40.00")).toMatchObject({ amount: 40, status: "completed" });
      await eventually(async () => expect(await getCheckout(p.checkoutId)).toMatchObject({ status: "paid", amount_refunded: 40 }));
      expect(await record(p)).toMatchObject({ transaction_status: "completed", amount_refunded: 40 });
      const tooMuch = await refunds.request(consumer, { transaction_uuid: p.uuid, amount: 67.51 });
      expect(tooMuch.statusCode).toBe(409);
      expect(tooMuch.json().error).toMatchObject({ type: "conflict_error", code: "amount_exceeds_refundable", param: "amount" });
      // Without an amount: the rest.
      expect(await payBack()).toMatchObject({ amount: 67.5, status: "completed" });
      await eventually(async () => expect(await getCheckout(p.checkoutId)).toMatchObject({ status: "refunded", amount_refunded: 107.5 }));
      expect(await record(p)).toMatchObject({ amount_refunded: 107.5 });
      const nothingLeft = await refunds.request(consumer, { transaction_uuid: p.uuid });
      expect(nothingLeft.json().error.code).toBe("refund_exists");
      const bad = await refunds.request(consumer, { transaction_uuid: p.uuid, amount: "1.234" });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toMatchObject({ code: "amount_invalid", param: "amount" });
      // A refunded checkout is closed like a paid one.
      const link = await stack.app.inject({ url: `/api/merchants/checkout/${p.checkoutId}/generate_link_token`, headers: key });
      expect(link.json().error.code).toBe("checkout_closed");
    });

    it("lists and removes operators; a removed operator's token is refused at once, mid-flow", async () => {
      const phone = randomPhone();
      expect((await addOperator(merchant.id, phone)).statusCode).toBe(200);
      const listed = await operators(merchant.id);
      expect(listed.statusCode).toBe(200);
      const operatorId = (listed.json().data as { id: string; phone: string }[]).find((o) => o.phone === phone)?.id;
      // Named by its opr_ id, as the audit log names it (docs/decisions/0054-audit-log.md).
      expect(operatorId).toMatch(/^opr_[0-9a-f]{32}$/);
      expect(listed.json().data).toContainEqual({ id: operatorId, merchant_id: merchant.id, phone, created_at: expect.stringMatching(ISO) });
      expect((await operators(other.id)).json().data.map((o: { phone: string }) => o.phone)).not.toContain(phone);

      const p = await payment(stack, merchant.apiKey, "completed");
      const refund = await requested(stack, p);
      const operator = { authorization: `Token ${(await consumerToken(stack, merchant.apiKey, phone)).token}` };
      expect((await refunds.decide(operator, refund.id, "Approved")).json().refund.status).toBe("approved");
      // Removed between the decision and the payout: the next call is refused, nothing is paid.
      const removed = await removeOperator(merchant.id, encodeURIComponent(phone));
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toEqual({ id: operatorId, merchant_id: merchant.id, phone, removed: true });
      const refused = await refunds.initiate(operator, refund.id);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe("permission_denied");
      expect(await store.collection("sandbox_transfers").countDocuments({ idempotencyKey: refund.id })).toBe(0);
      expect((await operators(merchant.id)).json().data.map((o: { phone: string }) => o.phone)).not.toContain(phone);
      // Removing again, or a phone that never was one: 404; digits alone name the same phone.
      const again = await removeOperator(merchant.id, phone.slice(1));
      expect(again.statusCode).toBe(404);
      expect(again.json().error.code).toBe("operator_not_found");
      expect((await removeOperator(merchant.id, "not-a-phone")).json().error.code).toBe("invalid_phone_number");
      expect((await removeOperator(`mer_${"0".repeat(32)}`, phone.slice(1))).json().error.code).toBe("merchant_not_found");
      expect((await stack.app.inject({ url: `/api/admin/merchants/${merchant.id}/operators` })).statusCode).toBe(401);
      // The merchant's own key still pays out.
      expect((await refunds.initiate({ "api-key": merchant.apiKey }, refund.id)).json().refund.status).toBe("processing");
    });

    it("lists the merchant's own refunds newest first, by status or transaction, page by page, and reads one", async () => {
      const shop = await stack.merchant("Initech");
      const key = { "api-key": shop.apiKey };
      const list = (query = "") => stack.app.inject({ url: `/api/merchants/refunds${query}`, headers: key });
      const p = await payment(stack, shop.apiKey, "completed");
      const consumer = { authorization: `Token ${p.consumer.token}` };
      const ids: string[] = [];
      for (const amount of ["10.00", "20.00", "30.00"]) {
        ids.push((await refunds.request(consumer, { transaction_uuid: p.uuid, amount })).json().refund.id);
        // Each in a millisecond of its own: the list is newest first with ties by id, and a request
        // can take well under a millisecond here, so two could share one and come out by id.
        await sleep(2);
      }
      await refunds.decide(key, ids[1]!, "Rejected");
      const all = await list();
      expect(all.statusCode).toBe(200);
      expect(all.json()).toMatchObject({ has_more: false });
      expect(all.json().data.map((r: { id: string }) => r.id)).toEqual([...ids].reverse());
      expect((await list("?status=rejected")).json().data.map((r: { id: string }) => r.id)).toEqual([ids[1]]);
      expect((await list(`?transaction_uuid=${p.uuid}&limit=2`)).json()).toMatchObject({ has_more: true, data: [{ id: ids[2] }, { id: ids[1] }] });
      expect((await list(`?limit=2&starting_after=${ids[1]}`)).json()).toMatchObject({ has_more: false, data: [{ id: ids[0] }] });
      expect((await list("?status=maybe")).json().error).toMatchObject({ code: "parameter_invalid", param: "status" });
      const foreignCursor = await stack.app.inject({ url: `/api/merchants/refunds?starting_after=${ids[0]}`, headers: { "api-key": merchant.apiKey } });
      expect(foreignCursor.json().error.param).toBe("starting_after");
      const one = await stack.app.inject({ url: `/api/merchants/refunds/${ids[0]}`, headers: key });
      expect(one.json()).toEqual(all.json().data[2]);
      expect((await stack.app.inject({ url: `/api/merchants/refunds/${ids[0]}`, headers: { "api-key": merchant.apiKey } })).statusCode).toBe(404);
      // A valid consumer token is a known caller without the right here (docs/api-notes.md, Answers and errors): 403.
      expect((await stack.app.inject({ url: `/api/merchants/refunds/${ids[0]}`, headers: consumer })).statusCode).toBe(403);
    });

    it("documents partial refunds, failed payouts, the merchant's refunds and operator removal in the OpenAPI document", async () => {
      const spec = (await stack.app.inject("/openapi.json")).json();
      const paths = spec.paths as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: object } }> } }>>;
      expect(paths["/api/merchants/refunds"]?.get).toBeDefined();
      expect(paths["/api/merchants/refunds/{id}"]?.get).toBeDefined();
      expect(paths["/api/admin/merchants/{id}/operators"]?.get).toBeDefined();
      expect(paths["/api/admin/merchants/{id}/operators/{phone}"]?.delete).toBeDefined();
      const body = paths["/api/merchants/refund_request/consumer_refund_request"]?.post?.requestBody?.content["application/json"]?.schema;
      expect(Object.keys(body?.properties ?? {})).toContain("amount");
      const text = JSON.stringify(spec);
      for (const field of ["amount_refunded", "failure_code", "failure_reason", '"refunded"']) expect(text).toContain(field);
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
      expect(added.json()).toEqual({ id: expect.stringMatching(/^opr_[0-9a-f]{32}$/), merchant_id: merchant.id, phone });
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
