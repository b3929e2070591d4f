import { createWebhookEndpointOp, listDeliveriesOp } from "@payrail/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { startReceiver, verify, type Receiver } from "../../../test/support/webhook-receiver.ts";
import { as, merchant, refundEvent, startWebhooks, until, type WebhooksHarness } from "./support/webhooks-harness.ts";

const variants = await infraVariants();

describe.each(variants)("two webhooks replicas over $name", (variant) => {
  let h: WebhooksHarness;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startWebhooks(variant);
    await h.replica();
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await h?.stop();
    await variant.cleanup();
  });

  it.skipIf(!!variant.skipReason)("deliver each event once per endpoint (a failed attempt's retry aside)", async () => {
    const m = merchant();
    const endpoints = [];
    for (let i = 0; i < 2; i++) {
      const receiver = await startReceiver();
      receivers.push(receiver);
      endpoints.push({ receiver, endpoint: await h.client.call(createWebhookEndpointOp, { url: receiver.url, enabled_events: ["*"] }, as(m)) });
    }
    const events = Array.from({ length: 20 }, () => refundEvent(m));
    // Each published twice: the replicas share the queue, so the copies may go to either one.
    await Promise.all(events.flatMap((event) => [h.publish(event), h.publish(event)]));
    for (const { receiver } of endpoints) {
      await until("every event at every endpoint", () => events.every((e) => receiver.of(e.id).length >= 1), 30_000);
    }
    // Room for a duplicate to show up.
    await new Promise((resolve) => setTimeout(resolve, 700));
    for (const { receiver, endpoint } of endpoints) {
      expect(events.map((e) => receiver.of(e.id).length)).toEqual(events.map(() => 1));
      for (const request of receiver.received) verify(endpoint.secret, request);
      const { data } = await h.client.call(listDeliveriesOp, { id: endpoint.id, limit: 100 }, as(m));
      expect(data).toHaveLength(20);
    }
  });
});
