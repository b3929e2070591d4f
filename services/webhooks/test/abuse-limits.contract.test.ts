import {
  createWebhookEndpointOp,
  deleteWebhookEndpointOp,
  listDeliveriesOp,
  listEventsOp,
  redeliverEventOp,
  updateWebhookEndpointOp,
} from "@payrail/contracts";
import { AppError } from "@payrail/contracts";
import { prefixedHexId } from "@payrail/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { startReceiver, type Receiver } from "../../../test/support/webhook-receiver.ts";
import { as, codeOf, merchant, refundEvent, startWebhooks, until, type WebhooksHarness } from "./support/webhooks-harness.ts";

const variants = await infraVariants();

/** The AppError a call rejects with. */
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => expect.fail("expected the call to fail"),
    (e: unknown) => (e instanceof AppError ? e : expect.fail(String(e))),
  );
/** A public address (documentation's example.com); nothing here is ever delivered to it. */
const PUBLIC_URL = "http://93.184.216.34/hooks";
const PRIVATE = ["http://127.0.0.1:9/hooks", "http://localhost:9/hooks", "http://[::1]:9/hooks", "http://10.0.0.8/hooks", "http://192.168.1.20/hooks", "http://[::ffff:127.0.0.1]/hooks", "http://[::127.0.0.1]/hooks", "http://[::a00:1]/hooks"];

/** The webhook limits (docs/api-notes.md, Limits): private targets only when allowed, 16 endpoints per merchant, redeliver once a minute. */
describe.each(variants)("webhook abuse limits over $name (sandbox, WEBHOOK_ALLOW_PRIVATE_URLS=false)", (variant) => {
  let h: WebhooksHarness;
  let receiver: Receiver;

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startWebhooks(variant, { allowPrivateUrls: false });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.stop();
    await variant.cleanup();
  });

  const create = (m: ReturnType<typeof merchant>, url = PUBLIC_URL) => h.client.call(createWebhookEndpointOp, { url, enabled_events: ["*"] }, as(m));
  const endpoints = () => h.store.collection<{ _id: string; url: string; merchantId: string }>("webhook_endpoints");
  /** An endpoint whose deliveries go nowhere: its URL is moved to loopback, which every connection refuses here. */
  const quietEndpoint = async (m: ReturnType<typeof merchant>) => {
    const created = await create(m);
    await endpoints().findOneAndUpdate({ _id: created.id }, { $set: { url: "http://127.0.0.1:9/hooks" } });
    return created;
  };

  describe.skipIf(!!variant.skipReason)("private addresses", () => {
    it.each(PRIVATE)("refuses to register or move an endpoint to %s", async (url) => {
      const m = merchant();
      const refused = await errorOf(create(m, url));
      expect(refused).toMatchObject({ code: "parameter_invalid", param: "url", message: expect.stringMatching(/WEBHOOK_ALLOW_PRIVATE_URLS/) });
      const created = await create(m);
      expect(await codeOf(h.client.call(updateWebhookEndpointOp, { id: created.id, url }, as(m)))).toBe("parameter_invalid");
    });

    it("takes plain http to a public address in the sandbox", async () => {
      await expect(create(merchant())).resolves.toMatchObject({ url: PUBLIC_URL, status: "enabled", livemode: false });
    });

    it("checks again on every connection: an endpoint registered while private targets were allowed gets nothing, and no answer is kept", async () => {
      const m = merchant();
      const created = await create(m);
      // As if it had been registered under WEBHOOK_ALLOW_PRIVATE_URLS=true, before the switch.
      await endpoints().findOneAndUpdate({ _id: created.id }, { $set: { url: receiver.url } });
      const event = refundEvent(m);
      await h.publish(event);
      const attempts = async () => (await h.client.call(listDeliveriesOp, { id: created.id, limit: 50 }, as(m))).data;
      await until("the refused attempt", async () => (await attempts()).some((a) => a.event_id === event.id));
      expect((await attempts()).find((a) => a.event_id === event.id)).toMatchObject({ http_status: null, error: expect.stringMatching(/may not be sent to/) });
      expect(receiver.received).toHaveLength(0);
    });
  });

  describe.skipIf(!!variant.skipReason)("16 endpoints per merchant", () => {
    it("refuses the 17th with 409 endpoint_limit_reached, and takes one again after a delete", async () => {
      const m = merchant();
      const made = [];
      for (let i = 0; i < 16; i++) made.push(await create(m));
      expect(await codeOf(create(m))).toBe("endpoint_limit_reached");
      // Another merchant is not affected.
      await create(merchant());
      await h.client.call(deleteWebhookEndpointOp, { id: made[0]!.id }, as(m));
      await create(m);
      expect(await codeOf(create(m))).toBe("endpoint_limit_reached");
    });

    it("lets exactly 4 of 10 racing creates through when the merchant has 12", async () => {
      const m = merchant();
      for (let i = 0; i < 12; i++) await create(m);
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => codeOf(create(m))));
      expect(outcomes.filter((o) => o === "resolved")).toHaveLength(4);
      expect(outcomes.filter((o) => o === "endpoint_limit_reached")).toHaveLength(6);
      expect(await endpoints().countDocuments({ merchantId: m.merchantId })).toBe(16);
    });

    it("counts the endpoints a merchant had before the limit existed", async () => {
      const m = merchant();
      const template = await create(merchant());
      const doc = await endpoints().findOne({ _id: template.id });
      for (let i = 0; i < 16; i++) await endpoints().insertOne({ ...doc!, _id: prefixedHexId("we_"), merchantId: m.merchantId });
      expect(await codeOf(create(m))).toBe("endpoint_limit_reached");
    });
  });

  describe.skipIf(!!variant.skipReason)("redeliver", () => {
    it("redelivers an event once a minute: a second request is 429 with Retry-After", async () => {
      const m = merchant();
      const created = await quietEndpoint(m);
      const event = refundEvent(m);
      await h.publish(event);
      await until("the event", async () => (await h.client.call(listEventsOp, { limit: 10 }, as(m))).data.length === 1);
      expect(await h.client.call(redeliverEventOp, { id: event.id }, as(m))).toEqual({ id: event.id, webhook_endpoints: [created.id] });
      const refused = await errorOf(h.client.call(redeliverEventOp, { id: event.id }, as(m)));
      expect(refused).toMatchObject({ code: "rate_limited", param: "id" });
      expect(refused.retryAfter).toBeGreaterThan(50);
      expect(refused.retryAfter).toBeLessThanOrEqual(60);
      // Another event of the merchant has its own turn.
      const other = refundEvent(m);
      await h.publish(other);
      await until("the other event", async () => (await h.client.call(listEventsOp, { limit: 10 }, as(m))).data.length === 2);
      await expect(h.client.call(redeliverEventOp, { id: other.id }, as(m))).resolves.toMatchObject({ webhook_endpoints: [created.id] });
    });

    it("gives one of 10 racing redeliveries the turn", async () => {
      const m = merchant();
      await quietEndpoint(m);
      const event = refundEvent(m);
      await h.publish(event);
      await until("the event", async () => (await h.client.call(listEventsOp, { limit: 10 }, as(m))).data.length === 1);
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => codeOf(h.client.call(redeliverEventOp, { id: event.id }, as(m)))));
      expect(outcomes.filter((o) => o === "resolved")).toHaveLength(1);
      expect(outcomes.filter((o) => o === "rate_limited")).toHaveLength(9);
    });
  });
});
