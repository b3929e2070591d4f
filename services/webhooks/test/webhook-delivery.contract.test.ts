import {
  createWebhookEndpointOp,
  getEventOp,
  listDeliveriesOp,
  redeliverEventOp,
  rotateWebhookSecretOp,
  sendTestEventOp,
  type MerchantPrincipal,
} from "@payrail/contracts";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { startReceiver, verify, type Receiver } from "../../../test/support/webhook-receiver.ts";
import { as, codeOf, merchant, refundEvent, startWebhooks, until, type WebhooksHarness } from "./support/webhooks-harness.ts";

const variants = await infraVariants();

describe.each(variants)("webhook delivery over $name", (variant) => {
  let h: WebhooksHarness;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startWebhooks(variant);
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await h?.stop();
    await variant.cleanup();
  });

  async function endpointFor(m: MerchantPrincipal, enabled_events = ["*"]) {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const endpoint = await h.client.call(createWebhookEndpointOp, { url: receiver.url, enabled_events }, as(m));
    return { receiver, endpoint };
  }

  describe.skipIf(!!variant.skipReason)("delivery", () => {
    it("delivers a published domain event, signed as Standard Webhooks: standardwebhooks verifies it, and the body is the merchant's event object", async () => {
      const m = merchant();
      const { receiver, endpoint } = await endpointFor(m);
      expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      const event = refundEvent(m);
      await h.publish(event);
      await until("the delivery", () => receiver.of(event.id).length === 1);
      const [request] = receiver.of(event.id);
      expect(verify(endpoint.secret, request!)).toEqual({
        id: event.id,
        type: "refund.approved",
        created_at: event.created_at,
        livemode: false,
        data: { object: event.data.object },
      });
      expect(request!.headers["content-type"]).toBe("application/json");
      // Signed with another secret, it does not verify.
      const other = await h.client.call(createWebhookEndpointOp, { url: receiver.url, enabled_events: ["checkout.*"] }, as(m));
      expect(() => verify(other.secret, request!)).toThrow();
      expect(await h.client.call(getEventOp, { id: event.id }, as(m))).toEqual(JSON.parse(request!.body));
    });

    it("sends only the types an endpoint takes: refund.* takes refund events, checkout.created does not", async () => {
      const m = merchant();
      const refunds = await endpointFor(m, ["refund.*"]);
      const checkouts = await endpointFor(m, ["checkout.created"]);
      const event = refundEvent(m, "refund.requested");
      await h.publish(event);
      await until("the refund endpoint's delivery", () => refunds.receiver.of(event.id).length === 1);
      // Nothing marks "not sent": 300 ms is six of the worker's 50 ms polls, room for a wrong delivery.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(checkouts.receiver.received).toHaveLength(0);
    });

    it("retries a receiver that fails 3 times with the same webhook-id, then records the success; each attempt is listed", async () => {
      const m = merchant();
      const { receiver, endpoint } = await endpointFor(m);
      receiver.answer = (_request, index) => (index < 3 ? 503 : 200);
      const event = refundEvent(m);
      await h.publish(event);
      await until("the fourth attempt", () => receiver.of(event.id).length === 4);
      const requests = receiver.of(event.id);
      expect(new Set(requests.map((r) => r.headers["webhook-id"]))).toEqual(new Set([event.id]));
      for (const request of requests) verify(endpoint.secret, request);
      await until("the fourth attempt's record", async () => (await h.client.call(listDeliveriesOp, { id: endpoint.id, limit: 10 }, as(m))).data.length === 4);
      const { data } = await h.client.call(listDeliveriesOp, { id: endpoint.id, limit: 10 }, as(m));
      expect(data.map((a) => [a.attempt, a.status, a.http_status])).toEqual([
        [4, "succeeded", 200],
        [3, "failed", 503],
        [2, "failed", 503],
        [1, "failed", 503],
      ]);
      expect(data[0]!.next_retry_at).toBeNull();
      const firstPage = await h.client.call(listDeliveriesOp, { id: endpoint.id, limit: 3 }, as(m));
      const lastPage = await h.client.call(listDeliveriesOp, { id: endpoint.id, limit: 3, starting_after: firstPage.data[2]!.id }, as(m));
      expect([firstPage.has_more, lastPage.has_more]).toEqual([true, false]);
      expect([...firstPage.data, ...lastPage.data]).toEqual(data);
      expect(await codeOf(h.client.call(listDeliveriesOp, { id: endpoint.id, limit: 3, starting_after: "nope" }, as(m)))).toBe("parameter_invalid");
      expect(data[1]!.next_retry_at).not.toBeNull();
      expect(data.every((a) => a.event_id === event.id && a.duration_ms >= 0)).toBe(true);
      // No attempt after the success: 400 ms is past the next 150 ms retry there would have been.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(receiver.of(event.id)).toHaveLength(4);
    });

    it("a receiver that hangs does not hold up another endpoint's deliveries", async () => {
      const m = merchant();
      const slow = await endpointFor(m);
      slow.receiver.answer = () => "hang";
      const fast = await endpointFor(m);
      const first = refundEvent(m);
      await h.publish(first);
      await until("the hanging receiver to get the event", () => slow.receiver.of(first.id).length === 1);
      const second = refundEvent(m);
      await h.publish(second);
      await until("the other receiver to get both", () => fast.receiver.of(first.id).length === 1 && fast.receiver.of(second.id).length === 1);
      // While the hanging attempts still wait for their 3 s timeout: none has ended yet, so the
      // other endpoint was not waiting behind them.
      expect((await h.client.call(listDeliveriesOp, { id: slow.endpoint.id, limit: 10 }, as(m))).data).toEqual([]);
      await until("the hung attempt to time out", async () => (await h.client.call(listDeliveriesOp, { id: slow.endpoint.id, limit: 10 }, as(m))).data.length > 0);
      const after = await h.client.call(listDeliveriesOp, { id: slow.endpoint.id, limit: 10 }, as(m));
      expect(after.data.at(-1)).toMatchObject({ status: "failed", http_status: null, error: expect.stringContaining("timed out") });
    });

    it("after a rotation, signs with both secrets: a receiver holding either verifies", async () => {
      const m = merchant();
      const { receiver, endpoint } = await endpointFor(m);
      const rotated = await h.client.call(rotateWebhookSecretOp, { id: endpoint.id }, as(m));
      expect(rotated.secret).not.toBe(endpoint.secret);
      expect(rotated.id).toBe(endpoint.id);
      const event = refundEvent(m);
      await h.publish(event);
      await until("the delivery", () => receiver.of(event.id).length === 1);
      const [request] = receiver.of(event.id);
      expect(String(request!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
      expect(verify(rotated.secret, request!)).toMatchObject({ id: event.id });
      expect(verify(endpoint.secret, request!)).toMatchObject({ id: event.id });
    });

    it("redelivers an event on request with the same webhook-id, and sends a sandbox test event like any other", async () => {
      const m = merchant();
      const { receiver, endpoint } = await endpointFor(m);
      const test = await h.client.call(sendTestEventOp, { type: "transaction.completed" }, as(m));
      expect(test).toMatchObject({ type: "transaction.completed", livemode: false, data: { object: { transaction_status: "completed" } } });
      await until("the test event", () => receiver.of(test.id).length === 1);
      const again = await h.client.call(redeliverEventOp, { id: test.id }, as(m));
      expect(again).toEqual({ id: test.id, webhook_endpoints: [endpoint.id] });
      await until("the redelivery", () => receiver.of(test.id).length === 2);
      for (const request of receiver.of(test.id)) {
        expect(new Webhook(endpoint.secret).verify(request.body, request.headers as Record<string, string>)).toMatchObject({ id: test.id });
      }
    });

    it("delivers an event published twice once per endpoint", async () => {
      const m = merchant();
      const { receiver } = await endpointFor(m);
      const event = refundEvent(m);
      await h.publish(event);
      await h.publish(event);
      await until("the delivery", () => receiver.of(event.id).length === 1);
      // Room for the second copy's delivery, had the fan-out made one: ten of the worker's polls.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.of(event.id)).toHaveLength(1);
    });
  });
});
