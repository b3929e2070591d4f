import { createWebhookEndpointOp, getEventOp, listEventsOp } from "@payrail/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { startReceiver, type Receiver } from "../../../test/support/webhook-receiver.ts";
import { as, codeOf, merchant, refundEvent, startWebhooks, until, type WebhooksHarness } from "./support/webhooks-harness.ts";

const variants = await infraVariants();
const DAY = 24 * 3_600_000;

describe.each(variants)("events kept 30 days over $name", (variant) => {
  let h: WebhooksHarness;
  let receiver: Receiver;
  /** The service's clock runs this far ahead of the real one. */
  const clock = { aheadMs: 0 };

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startWebhooks(variant, { now: () => new Date(Date.now() + clock.aheadMs), purgeEveryMs: 100 });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.stop();
    await variant.cleanup();
  });

  it.skipIf(!!variant.skipReason)("hides an event once it is 30 days old, then purges it with its deliveries and attempts", async () => {
    const m = merchant();
    const endpoint = await h.client.call(createWebhookEndpointOp, { url: receiver.url, enabled_events: ["*"] }, as(m));
    const event = refundEvent(m);
    await h.publish(event);
    await until("the delivery", () => receiver.of(event.id).length === 1);
    const deliveryId = `${event.id}.${endpoint.id}`;
    const stored = (collection: string, _id: string) => h.store.collection(collection).findOne({ _id });
    await until("the attempt's record", async () => (await stored("webhook_attempts", `${deliveryId}.1`)) !== null);
    clock.aheadMs = 29 * DAY;
    expect((await h.client.call(getEventOp, { id: event.id }, as(m))).id).toBe(event.id);

    clock.aheadMs = 30 * DAY + 60_000;
    expect(await codeOf(h.client.call(getEventOp, { id: event.id }, as(m)))).toBe("resource_missing");
    expect((await h.client.call(listEventsOp, { limit: 10 }, as(m))).data).toEqual([]);
    await until("the purge", async () => (await stored("webhook_events", event.id)) === null);
    await until("the deliveries' purge", async () => (await stored("webhook_deliveries", deliveryId)) === null && (await stored("webhook_attempts", `${deliveryId}.1`)) === null);
  });
});
